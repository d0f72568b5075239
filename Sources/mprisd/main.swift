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
                Output.out(Commands.overview)
                return ExitStatus.success
            }
            guard let named = Commands.named(topic) else {
                Output.error("mprisd: no command '\(topic)' (see mprisd --help)")
                return ExitStatus.usage
            }
            Output.out(named.help)
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
            Output.out(Commands.overview + "\n\n" + Commands.daemon.help)
            return ExitStatus.success
        }
        command = Commands.daemon
    }
    if arguments.wantsHelp {
        Output.out(command.help)
        return ExitStatus.success
    }
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
exit(runMain(CommandLine.arguments))
