// mprisd: audio sessions and media remote control for Linux.
#if canImport(Glibc)
import Glibc
#endif
import AudioPolicyDaemon
import Posix

/// Picks the command, handles `--help` and usage errors, and returns the exit status.
func runMain(_ argv: [String]) -> Int32 {
    var arguments = Arguments(argv.dropFirst())
    let command: Command
    do {
        switch try pickCommand(&arguments) {
        case .helpShown: return ExitStatus.success
        case .run(let picked): command = picked
        }
    } catch {
        Output.error("mprisd: " + error.message)
        return ExitStatus.usage
    }
    // The user's defaults go in front of the flags given; a bad line is reported, never fatal.
    let defaults = Defaults.load()
    Defaults.report(defaults)
    Defaults.apply(defaults, command: command.name, to: &arguments)
    do {
        return try command.run(&arguments)
    } catch let error as UsageError {
        let prefix = command.name == "daemon" ? "mprisd: " : "mprisd \(command.name): "
        Output.error(prefix + error.message)
        return ExitStatus.usage
    } catch {
        Output.error("mprisd: \(error)")
        return ExitStatus.failure
    }
}

// Before anything opens a file: fds 0–2 must not be free for the bus socket to take.
StandardStreams.ensureOpen()
// Synchronous: no Swift concurrency, so no libdispatch thread pool ticking once a second.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == JournalGuard.argument {
    exit(JournalGuard.run())
}
exit(Output.finish(runMain(CommandLine.arguments)))
