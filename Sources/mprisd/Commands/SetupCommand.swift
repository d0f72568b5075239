extension Commands {
    static let setup = Command(
        name: "setup",
        summary: "make the desktop's media keys (and mpris-proxy) follow the daemon; --undo",
        help: """
            Usage: mprisd setup [--desktop NAME] [--dry-run] [--write-config]
                   mprisd setup --undo [--dry-run]

            Makes the desktop you use follow the daemon's choice of player, from
            XDG_CURRENT_DESKTOP or --desktop (\(SetupDesktop.names)):
              GNOME     its Play, Pause, Stop, Next and Previous keys are released and run
                        mprisd-control through custom shortcuts added to your own (dconf);
                        custom shortcuts do not run on the lock screen
              Xfce      the panel's PulseAudio plugin lets go of the media keys (its volume
                        keys stay) and Xfce's keyboard shortcuts run mprisd-control (xfconf)
              sway, i3, Hyprland
                        the bindings are written to ~/.config/mprisd/NAME-keys.conf, and the
                        line that includes it from your configuration is shown (written only
                        with --write-config)
              KDE       Plasma's Media Controller lets go of its keys (kglobalaccel) and a
                        launcher of mprisd-control takes each (~/.local/share/kglobalaccel)
            and BlueZ's mpris-proxy, when its user unit runs or is enabled, is stopped and
            masked (the daemon is the headset's player itself).

            Every value is recorded (in the state directory, setup.json) before it is changed;
            --undo puts back exactly what was there, keeping anything you changed since.
            Running setup twice changes nothing the second time.

            Options:
              --desktop NAME  the desktop to set up, instead of XDG_CURRENT_DESKTOP's
              --dry-run       say what would change, change nothing
              --write-config  sway, i3, Hyprland: add the include line to your configuration
              --undo          put back what setup changed
              -h, --help      show this help
            """,
        run: { arguments in
            let undo = try arguments.popSwitch("--undo")
            let dryRun = try arguments.popSwitch("--dry-run")
            let writeConfig = try arguments.popSwitch("--write-config")
            let desktop = try arguments.popValue("--desktop") { name in
                SetupDesktop(rawValue: name.lowercased()) == nil ? "takes \(SetupDesktop.names), not '\(name.prefix(40))'" : nil
            }
            try arguments.expectEnd()
            if undo, desktop != nil || writeConfig {
                throw UsageError("--undo takes no --desktop or --write-config: it puts back what the record says")
            }
            return SetupProgram.run(desktop: desktop.flatMap { SetupDesktop(rawValue: $0.lowercased()) }, dryRun: dryRun, undo: undo,
                                    writeConfig: writeConfig)
        })
}
