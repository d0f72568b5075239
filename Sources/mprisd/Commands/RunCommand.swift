import SessionCore
import SystemContext

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

            CMD's audio streams get a media.role from the session (phone for a call,
            navigation for a voice prompt, video for movie playback, music for other
            playback, game for ambient sounds) through PULSE_PROP_media.role, with or
            without a daemon. A program that sets its own role keeps it, and a
            PULSE_PROP_media.role already in the environment wins.

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
            guard let command = arguments.popAfterDoubleDash(), let program = command.first, !program.isEmpty else {
                throw UsageError("run needs a program after --")
            }
            var category = SessionCategory.playback
            if let name = try arguments.popValue("--category") {
                guard let parsed = SessionCategory(rawValue: name) else {
                    throw UsageError("unknown category \(Excerpt.quoted(name)) (one of: \(categories.joined(separator: ", ")))")
                }
                category = parsed
            }
            var mode = SessionMode.default
            if let name = try arguments.popValue("--mode") {
                guard let parsed = SessionMode(rawValue: name) else {
                    throw UsageError("unknown mode \(Excerpt.quoted(name)) (one of: \(modes.joined(separator: ", ")))")
                }
                mode = parsed
            }
            var options = SessionOptions()
            if try arguments.popSwitch("--mix") { options.insert(.mixWithOthers) }
            if try arguments.popSwitch("--duck") { options.insert(.duckOthers) }
            if try arguments.popSwitch("--interrupt-spoken") { options.insert(.interruptSpokenAudioAndMixWithOthers) }
            let notifyOthers = try arguments.popSwitch("--notify-others")
            let verbose = try arguments.popSwitch("--verbose")
            let name = try arguments.popValue("--name", rule: ValueRules.sessionName)
                ?? program.split(separator: "/").last.map(String.init) ?? program
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
