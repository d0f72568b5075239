extension Commands {
    static let status = Command(
        name: "status",
        summary: "show sessions, players, route, volume, silent mode, lock",
        help: """
            Usage: mprisd status [--json]

            Shows what the policy daemon knows: registered sessions (owner, category, state),
            foreign MPRIS players, the current route, the output volume, silent mode and lock.

            Options:
              --json      print a stable JSON document instead of the table
              -h, --help  show this help
            """,
        run: { arguments in
            _ = arguments.popSwitch("--json")
            try arguments.expectEnd()
            return notYetAvailable("status", issue: 6)
        })

    static let silent = Command(
        name: "silent",
        summary: "switch silent mode on or off",
        help: """
            Usage: mprisd silent on|off

            Silent mode silences ambient and soloAmbient sessions (UI sounds, game effects)
            while media playback, calls and recordings go on. The setting persists.

            Options:
              -h, --help  show this help
            """,
        run: { arguments in
            guard let state = arguments.popOperand() else { throw UsageError("silent needs 'on' or 'off'") }
            guard state == "on" || state == "off" else {
                throw UsageError("silent takes 'on' or 'off', not '\(state)'")
            }
            try arguments.expectEnd()
            return notYetAvailable("silent", issue: 6)
        })

    static let route = Command(
        name: "route",
        summary: "list outputs, or pick the one to use",
        help: """
            Usage: mprisd route [list]
                   mprisd route use ID

            Lists the outputs that exist (headphone and line jacks, Bluetooth sinks, configured
            ALSA devices), or makes ID the user's route pick. A route the user picks never
            pauses playback.

            Options:
              -h, --help  show this help
            """,
        run: { arguments in
            switch arguments.popOperand() ?? "list" {
            case "list":
                break
            case "use":
                guard arguments.popOperand() != nil else { throw UsageError("route use needs an output ID") }
            case let other:
                throw UsageError("route takes 'list' or 'use ID', not '\(other)'")
            }
            try arguments.expectEnd()
            return notYetAvailable("route", issue: 5)
        })
}
