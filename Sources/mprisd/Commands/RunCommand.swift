extension Commands {
    static let categories = ["ambient", "soloAmbient", "playback", "record", "playAndRecord",
                             "multiRoute", "audioProcessing"]
    static let modes = ["default", "voiceChat", "videoChat", "gameChat", "videoRecording", "measurement",
                        "moviePlayback", "spokenAudio", "voicePrompt"]

    static let run = Command(
        name: "run",
        summary: "run a program inside an audio session",
        help: """
            Usage: mprisd run [session options] -- CMD [ARGS...]

            Registers an audio session with the policy daemon, activates it, runs CMD, and
            deactivates the session when CMD exits. Exits with CMD's status.

            Session options:
              --category C        \(categories.joined(separator: ", "))
                                  (default: playback)
              --mode M            \(modes.joined(separator: ", "))
              --mix               mix with other audio instead of interrupting it
              --duck              duck other audio while active (implies --mix)
              --interrupt-spoken  pause spoken audio of others, mix with the rest
              --notify-others     let interrupted sessions resume when CMD exits
              --name N            name shown in mprisd status
              -h, --help          show this help

            Examples:
              mprisd run --category playback --mix --duck -- espeak-ng "Turn left"
              mprisd run --category playAndRecord --mode voiceChat --notify-others -- linphone
            """,
        run: { arguments in
            guard let command = arguments.popAfterDoubleDash(), !command.isEmpty else {
                throw UsageError("run needs a program after --")
            }
            if let category = try arguments.popValue("--category"), !categories.contains(category) {
                throw UsageError("unknown category '\(category)' (one of: \(categories.joined(separator: ", ")))")
            }
            if let mode = try arguments.popValue("--mode"), !modes.contains(mode) {
                throw UsageError("unknown mode '\(mode)' (one of: \(modes.joined(separator: ", ")))")
            }
            for flag in ["--mix", "--duck", "--interrupt-spoken", "--notify-others"] { _ = arguments.popSwitch(flag) }
            _ = try arguments.popValue("--name")
            try arguments.expectEnd()
            return notYetAvailable("run", issue: 6)
        })
}
