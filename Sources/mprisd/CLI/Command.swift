/// One subcommand of `mprisd`: its name, its help text, and what it does.
struct Command: Sendable {
    let name: String
    /// One line for the overview.
    let summary: String
    /// The full `--help` text.
    let help: String
    /// Runs the command with its own arguments; returns the exit status.
    let run: @Sendable (inout Arguments) throws -> Int32
}
