import Player

extension Commands {
    static let play = Command(
        name: "play",
        summary: "play files with MPRIS remote control",
        help: """
            Usage: mprisd play [options] [--] FILE|DIR...

            Plays a queue of audio files through ALSA inside a playback audio session. While it
            plays (or is paused) it is an MPRIS player, org.mpris.MediaPlayer2.NAME, controlled
            by media keys, playerctl and Bluetooth headset buttons; the name is released when
            playback stops or the queue ends. After --, every argument is a file, even one
            that starts with - (mprisd play -- -v.wav).

            Options:
              --device PCM        ALSA output device (default: default; null: silent output
                                  paced in real time)
              --control CTL       ALSA control device for jacks and volume
              --name NAME         MPRIS name suffix: letters, digits, _ and -, not starting
                                  with a digit (default: mprisd)
              --volume V          relative volume, a plain decimal from 0 to 1 like 0.5
                                  (default: 1)
              --loop MODE         none, track or playlist (default: none)
              --shuffle           play the queue in random order
              -h, --help          show this help
            """,
        run: { arguments in
            // After `--` everything is a file, even `-v.wav`.
            let filesAfterDashes = arguments.popAfterDoubleDash() ?? []
            var options = PlayOptions()
            options.device = try arguments.popValue("--device", rule: ValueRules.device)
            options.control = try arguments.popValue("--control", rule: ValueRules.device)
            if let name = try arguments.popValue("--name", rule: ValueRules.playerName) { options.name = name }
            if let volume = try arguments.popValue("--volume", rule: ValueRules.volume) {
                options.volume = ValueRules.parseVolume(volume) ?? options.volume
            }
            if let loop = try arguments.popValue("--loop", rule: ValueRules.choice(LoopMode.allCases.map(\.rawValue))) {
                options.loop = LoopMode(rawValue: loop) ?? options.loop
            }
            options.shuffle = try arguments.popSwitch("--shuffle")
            while let file = try arguments.popOperand() { options.paths.append(file) }
            try arguments.expectEnd()
            guard !filesAfterDashes.contains("") else { throw UsageError("an argument is empty") }
            options.paths += filesAfterDashes
            guard !options.paths.isEmpty else { throw UsageError("play needs at least one FILE or DIR") }
            return PlayerProgram.run(options)
        })
}
