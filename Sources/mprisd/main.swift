// mprisd: audio sessions and media remote control for Linux.
#if canImport(Glibc)
import Glibc
#endif

/// Picks the command, handles `--help` and usage errors, and returns the exit status.
func runMain(_ argv: [String]) -> Int32 {
    var arguments = Arguments(argv.dropFirst())
    let command: Command
    if let first = arguments.remaining.first, !first.hasPrefix("-") {
        if first == "help" {
            _ = arguments.popOperand()
            guard let topic = arguments.popOperand() else {
                Output.out(Commands.overview + Defaults.overviewNote)
                return ExitStatus.success
            }
            if topic == "config" {
                Output.out(Defaults.configHelp)
                return ExitStatus.success
            }
            guard let named = Commands.named(topic) else {
                Output.error("mprisd: no command '\(topic)' (see mprisd --help)")
                return ExitStatus.usage
            }
            Output.out(named.help + Defaults.helpSection(for: named.name))
            return ExitStatus.success
        }
        guard let named = Commands.named(first), named.name != "daemon" else {
            Output.error("mprisd: unknown command '\(first)' (see mprisd --help)")
            return ExitStatus.usage
        }
        _ = arguments.popOperand()
        command = named
    } else {
        if arguments.wantsHelp, arguments.remaining.count == 1 {
            Output.out(Commands.overview + Defaults.overviewNote + "\n\n" + Commands.daemon.help
                       + Defaults.helpSection(for: "daemon"))
            return ExitStatus.success
        }
        command = Commands.daemon
    }
    if arguments.wantsHelp {
        Output.out(command.help + Defaults.helpSection(for: command.name))
        return ExitStatus.success
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

// Synchronous: no Swift concurrency, so no libdispatch thread pool ticking once a second.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == JournalGuard.argument {
    exit(JournalGuard.run())
}
exit(runMain(CommandLine.arguments))
