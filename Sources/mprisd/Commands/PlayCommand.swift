import Player

extension Commands {
    static let play = Command(
        name: "play",
        summary: "play files with MPRIS remote control",
        help: """
            Usage: mprisd play [options] FILE|DIR...

            Plays a queue of audio files through ALSA inside a playback audio session. While it
            plays (or is paused) it is an MPRIS player, org.mpris.MediaPlayer2.NAME, controlled
            by media keys, playerctl and Bluetooth headset buttons; the name is released when
            playback stops or the queue ends.

            Options:
              --device PCM        ALSA output device (default: default; null: silent output
                                  paced in real time)
              --control CTL       ALSA control device for jacks and volume
              --name NAME         MPRIS name suffix (default: mprisd)
              --volume V          relative volume, 0 to 1 (default: 1)
              --loop MODE         none, track or playlist (default: none)
              --shuffle           play the queue in random order
              -h, --help          show this help
            """,
        run: { arguments in
            var options = PlayOptions()
            options.device = try arguments.popValue("--device")
            options.control = try arguments.popValue("--control")
            if let name = try arguments.popValue("--name") {
                guard !name.isEmpty else { throw UsageError("--name needs a non-empty name") }
                options.name = name
            }
            if let volume = try arguments.popValue("--volume") {
                guard let value = Double(volume), (0...1).contains(value) else {
                    throw UsageError("--volume takes a number from 0 to 1, not '\(volume)'")
                }
                options.volume = value
            }
            if let loop = try arguments.popValue("--loop") {
                guard let mode = LoopMode(rawValue: loop) else {
                    throw UsageError("--loop takes none, track or playlist, not '\(loop)'")
                }
                options.loop = mode
            }
            options.shuffle = arguments.popSwitch("--shuffle")
            while let file = arguments.popOperand() { options.paths.append(file) }
            try arguments.expectEnd()
            guard !options.paths.isEmpty else { throw UsageError("play needs at least one FILE or DIR") }
            return PlayerProgram.run(options)
        })
}
