/// Every command of `mprisd`, in the order `mprisd --help` lists them.
enum Commands {
    static let all: [Command] = [daemon, play, run, status, doctor, setup, apps, silent, route, players, player, control]

    static func named(_ name: String) -> Command? {
        all.first { $0.name == name }
    }

    static let overview = """
        mprisd — audio sessions and media remote control for Linux

        Usage:
          mprisd [--control CTL]             run the audio policy daemon (foreground)
          mprisd play [options] FILE|DIR...  play files through ALSA with MPRIS remote control
          mprisd run [session options] -- CMD [ARGS...]
                                             run a program inside an audio session
          mprisd status [--json]             sessions, players, route, volume, silent mode, lock
          mprisd doctor [--json]             what stands in the daemon's way, and the fix
          mprisd setup [--undo]              make the desktop's media keys follow the daemon
          mprisd apps [list|set|unset]       apps without MPRIS as the daemon sees them; rules for them
          mprisd silent on|off               switch silent mode
          mprisd route [list|use ID]         outputs and the user's route pick
          mprisd players [--json]            the players the media keys may act on, ranked
          mprisd player pin NAME|unpin|next  choose the player the media keys act on
          mprisd control ACTION              play-pause, next, seek… the active player

        Every command takes --help; mprisd --version prints the version. Bad arguments exit with status 64.
        """
}
