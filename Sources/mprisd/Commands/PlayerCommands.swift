import Posix
import SystemContext

extension Commands {
    static let players = Command(
        name: "players",
        summary: "the players the media keys may act on, ranked, and why",
        help: """
            Usage: mprisd players [--json]

            Lists every MPRIS player the daemon knows (its own 'mprisd play' players and
            any other), ranked: 1 is the active player, the one 'mprisd control', the media
            keys and the headset act on. The choice: the player pinned with 'mprisd player
            pin'; else the one playing (the most recently started); else the one most
            recently paused, by the user or by the daemon (a call, a prompt). A stopped
            player, one never seen playing and one on daemon.ignore-players are never chosen.

            Options:
              --json      print a stable JSON document instead of the table
              -h, --help  show this help
            """,
        run: { arguments in
            let json = try arguments.popSwitch("--json")
            try arguments.expectEnd()
            return PlayersProgram.players(json: json)
        })

    static let player = Command(
        name: "player",
        summary: "pin the player the media keys act on, or cycle through the players",
        help: """
            Usage: mprisd player pin NAME
                   mprisd player unpin
                   mprisd player next

            pin NAME   make NAME the active player whatever the others do, until 'unpin' or
                       until it quits (NAME: org.mpris.MediaPlayer2.mpv or just mpv)
            unpin      let the daemon choose again
            next       pin the player after the active one among those playing or paused
                       after playing, in the order 'mprisd players' ranks them (as playerctld's
                       shift)

            Options:
              -h, --help  show this help
            """,
        run: { arguments in
            guard let action = try arguments.popOperand() else { throw UsageError("player needs 'pin NAME', 'unpin' or 'next'") }
            switch action {
            case "pin":
                guard let name = try arguments.popOperand() else { throw UsageError("player pin needs a player name") }
                try arguments.expectEnd()
                return PlayersProgram.pin(name)
            case "unpin":
                try arguments.expectEnd()
                return PlayersProgram.unpin()
            case "next":
                try arguments.expectEnd()
                return PlayersProgram.next()
            default:
                throw UsageError("player takes 'pin NAME', 'unpin' or 'next', not \(Excerpt.quoted(action))")
            }
        })

    static let control = Command(
        name: "control",
        summary: "play, pause, skip, seek or change the volume of the active player",
        help: """
            Usage: mprisd control play|pause|play-pause|next|previous|stop [--verbose]
                   mprisd control seek ±SECONDS|position SECONDS|volume ±V [--verbose]

            Acts on the active player (see 'mprisd players'): one call to the running
            daemon, for the media keys of a desktop or window manager. Faithful: play plays,
            pause pauses, and a Pause is never sent to a player that is not playing;
            play-pause sends Pause to a playing player and Play to any other. seek moves by
            SECONDS (negative: back), position goes to SECONDS from the start, volume adds V
            to the player's volume (0 to 1; e.g. +0.05, -0.05).

            Exits 1 with one line when no player is in an audio context, 69 when no daemon
            runs.

            Options:
              --verbose   print what was sent to which player
              -h, --help  show this help
            """,
        run: { arguments in
            let verbose = try arguments.popSwitch("--verbose")
            guard let action = try arguments.popOperand() else {
                throw UsageError("control needs an action: \(controlActions.joined(separator: ", "))")
            }
            guard controlActions.contains(action) else {
                throw UsageError("control takes \(controlActions.joined(separator: ", ")), not \(Excerpt.quoted(action))")
            }
            var value = 0.0
            if ["seek", "position", "volume"].contains(action) {
                guard let number = arguments.popNumber() else { throw UsageError("control \(action) needs a number") }
                if action == "position", number < 0 { throw UsageError("control position takes seconds from the start (0 or more)") }
                value = number
            }
            try arguments.expectEnd()
            return PlayersProgram.control(action, value: value, verbose: verbose)
        })

    /// What `mprisd control` takes (as `PlayerControl.actions` in the daemon).
    static let controlActions = ["play", "pause", "play-pause", "next", "previous", "stop", "seek", "position", "volume"]
}
