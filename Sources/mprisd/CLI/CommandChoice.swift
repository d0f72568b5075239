import SystemContext

/// What the first arguments asked for.
enum Picked {
    /// Help or the version was printed: nothing more to do.
    case helpShown
    case run(Command)
}

/// The command named first (the daemon when none is), or the help asked for — which takes no
/// other arguments: `--help extra` is as much a usage error as any stray argument.
func pickCommand(_ arguments: inout Arguments) throws(UsageError) -> Picked {
    if arguments.remaining.first == "--version" {
        if let extra = arguments.remaining.dropFirst().first {
            throw UsageError("--version takes no other arguments, not \(Excerpt.quoted(extra))")
        }
        Output.out(Version.text)
        return .helpShown
    }
    guard let first = arguments.remaining.first, !first.hasPrefix("-") else {
        if arguments.wantsHelp {
            try expectHelpAlone(arguments)
            Output.out(Commands.overview + Defaults.overviewNote + "\n\n" + Commands.daemon.help
                       + Defaults.helpSection(for: "daemon"))
            return .helpShown
        }
        return .run(Commands.daemon)
    }
    if first == "help" {
        _ = try arguments.popOperand()
        let topic = try arguments.popOperand()
        if let extra = arguments.remaining.first {
            throw UsageError("help takes one topic, not also \(Excerpt.quoted(extra))")
        }
        switch topic {
        case nil:
            Output.out(Commands.overview + Defaults.overviewNote)
        case "config":
            Output.out(Defaults.configHelp)
        case let topic?:
            guard let named = Commands.named(topic) else {
                throw UsageError("no command \(Excerpt.quoted(topic)) (see mprisd --help)")
            }
            Output.out(named.help + Defaults.helpSection(for: named.name))
        }
        return .helpShown
    }
    guard let named = Commands.named(first), named.name != "daemon" else {
        throw UsageError("unknown command \(Excerpt.quoted(first)) (see mprisd --help)")
    }
    _ = try arguments.popOperand()
    if arguments.wantsHelp {
        try expectHelpAlone(arguments)
        Output.out(named.help + Defaults.helpSection(for: named.name))
        return .helpShown
    }
    return .run(named)
}

private func expectHelpAlone(_ arguments: Arguments) throws(UsageError) {
    guard let extra = arguments.remaining.first(where: { $0 != "--help" && $0 != "-h" }) else {
        if arguments.remaining.count > 1 { throw UsageError("--help given twice") }
        return
    }
    throw UsageError("--help takes no other arguments, not \(Excerpt.quoted(extra))")
}
