import SessionCore

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
              --name N            name shown in mprisd status (default: the program's)
              --verbose           print the session's events (interruptions, ducking)
              -h, --help          show this help

            Examples:
              mprisd run --category playback --mix --duck -- espeak-ng "Turn left"
              mprisd run --category playAndRecord --mode voiceChat --notify-others -- linphone
            """,
        run: { arguments in
            guard let command = arguments.popAfterDoubleDash(), !command.isEmpty else {
                throw UsageError("run needs a program after --")
            }
            var category = SessionCategory.playback
            if let name = try arguments.popValue("--category") {
                guard let parsed = SessionCategory(rawValue: name) else {
                    throw UsageError("unknown category '\(name)' (one of: \(categories.joined(separator: ", ")))")
                }
                category = parsed
            }
            var mode = SessionMode.default
            if let name = try arguments.popValue("--mode") {
                guard let parsed = SessionMode(rawValue: name) else {
                    throw UsageError("unknown mode '\(name)' (one of: \(modes.joined(separator: ", ")))")
                }
                mode = parsed
            }
            var options = SessionOptions()
            if arguments.popSwitch("--mix") { options.insert(.mixWithOthers) }
            if arguments.popSwitch("--duck") { options.insert(.duckOthers) }
            if arguments.popSwitch("--interrupt-spoken") { options.insert(.interruptSpokenAudioAndMixWithOthers) }
            let notifyOthers = arguments.popSwitch("--notify-others")
            let verbose = arguments.popSwitch("--verbose")
            let name = try arguments.popValue("--name") ?? command[0].split(separator: "/").last.map(String.init) ?? command[0]
            try arguments.expectEnd()
            let configuration = SessionConfiguration(category, mode: mode, options: options)
            do {
                _ = try configuration.validated()
            } catch {
                throw UsageError("\(error)")
            }
            return RunProgram.run(RunProgram.Request(command: command, configuration: configuration, name: name,
                                                     notifyOthers: notifyOthers, verbose: verbose))
        })
}
