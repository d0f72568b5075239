import DBus
import Posix
import SystemContext

extension Commands {
    static let status = Command(
        name: "status",
        summary: "show sessions, players, route, volume, silent mode, lock, audio server",
        help: """
            Usage: mprisd status [--json]

            Shows what the policy daemon knows: registered sessions (owner, category, state),
            foreign MPRIS players, the current route, the output volume, silent mode and lock;
            the audio server (connected or why not), its streams (app, role, device, volume,
            what the daemon does to each) and its sinks and sources (default, available).

            Options:
              --json      print a stable JSON document instead of the table
              -h, --help  show this help
            """,
        run: { arguments in
            let json = try arguments.popSwitch("--json")
            try arguments.expectEnd()
            return StatusProgram.run(json: json)
        })

    static let silent = Command(
        name: "silent",
        summary: "switch silent mode on or off",
        help: """
            Usage: mprisd silent on|off

            Silent mode silences ambient and soloAmbient sessions (UI sounds, game effects)
            while media playback, calls and recordings go on. The setting persists in
            $XDG_STATE_HOME/mprisd/silent; a running daemon follows it at once. On GNOME and
            Xfce (XDG_CURRENT_DESKTOP) it is the desktop's Do Not Disturb: this switches that
            too, and the daemon follows the desktop's switch.

            Options:
              -h, --help  show this help
            """,
        run: { arguments in
            guard let state = try arguments.popOperand() else { throw UsageError("silent needs 'on' or 'off'") }
            guard state == "on" || state == "off" else {
                throw UsageError("silent takes 'on' or 'off', not \(Excerpt.quoted(state))")
            }
            try arguments.expectEnd()
            do {
                try SilentModeSetting.write(state == "on")
            } catch {
                Output.error("mprisd silent: \(error)")
                return ExitStatus.failure
            }
            // Where the desktop has a Do Not Disturb we know, it is the same switch (issue 25).
            guard let desktop = DesktopDoNotDisturb.current, let connection = try? Connection(bus: .session) else {
                Output.out("silent mode: \(state)")
                return ExitStatus.success
            }
            defer { connection.close() }
            if let failure = desktop.write(state == "on", connection, wait: true) {
                Output.out("silent mode: \(state)")
                Output.error("mprisd silent: \(desktop.rawValue)'s Do Not Disturb was not switched: \(failure)")
                return ExitStatus.failure
            }
            // KDE Plasma's is an inhibition the daemon holds while silent mode is on (it follows the file).
            let holder = desktop == .kde ? ", held by the daemon" : ""
            Output.out("silent mode: \(state) (\(desktop.rawValue)'s Do Not Disturb: \(state)\(holder))")
            return ExitStatus.success
        })
}
