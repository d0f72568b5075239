import AudioPolicyDaemon
import MPRISDirectory

extension Commands {
    static let daemon = Command(
        name: "daemon",
        summary: "run the audio policy daemon",
        help: """
            Usage: mprisd [--control CTL] [--keep-paused-after-calls] [--ignore-players NAME,…]
                          [--pause-before-sleep=true|false] [--verbose]

            Runs the desktop's audio policy daemon in the foreground. It owns
            org.mprisd.AudioPolicy on the session bus, arbitrates the audio sessions of every
            process (interruptions, ducking, resume), treats ordinary MPRIS players as sessions,
            and pauses playback when headphones are unplugged or a Bluetooth headset drops.
            Logs go to standard error, one line per decision.

            Options:
              --control CTL   ALSA control device to watch for jacks and volume
                              (default: the card of the default output)
              --keep-paused-after-calls
                              a call from an app without our API (Zoom, a browser)
                              does not resume the players it paused when it ends
              --pause-before-sleep=true|false
                              pause every playing session before the system sleeps,
                              none resumed after the wake-up (default: true)
              --ignore-players NAME,NAME
                              players the media keys and the headset never act on
                              (firefox: org.mpris.MediaPlayer2.firefox and its instances)
              --verbose       log debug lines too
              --version       print the version (and the ALSA and libsndfile versions)
                              and exit; nothing else with it
              -h, --help      show this help
            """,
        run: { arguments in
            var options = DaemonOptions(version: Version.string)
            options.control = try arguments.popValue("--control", rule: ValueRules.device)
            options.resumeAfterCalls = !(try arguments.popSwitch("--keep-paused-after-calls"))
            if let pause = try arguments.popValue("--pause-before-sleep", rule: Defaults.switchValue) {
                options.pauseBeforeSleep = Defaults.boolean(pause) ?? true
            }
            if let ignore = try arguments.popValue("--ignore-players", rule: PlayerIgnoreList.problem(in:)) {
                options.ignorePlayers = PlayerIgnoreList(ignore)
            }
            options.verbose = try arguments.popSwitch("--verbose")
            try arguments.expectEnd()
            return PolicyDaemon.run(options)
        })
}
