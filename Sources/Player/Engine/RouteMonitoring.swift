import AudioDevices
import SessionCore

/// The player's view of the machine's outputs: the jacks and the mixer of its control device,
/// fed into the session (G-HEADPHONES-OUT/IN, G-VOLUME: the volume is only read).
///
/// Optional by nature: a control device that cannot be opened is reported once and playback goes
/// on without route monitoring.
struct RouteMonitoring {
    private(set) var jacks: JackMonitor?
    private(set) var volume: MixerVolume?

    /// Starts watching `control` (or the card behind `device`) for `engine`.
    init(control: String?, device: String?, engine: PlayerEngine, log: PlayerLog) {
        let name = control ?? ControlName.forPCM(device ?? OutputSelection.defaultDevice)
        guard let name else { return }  // an output without a card (null, pulse, a file): nothing to watch
        do {
            let monitor = try JackMonitor(control: name) { [weak engine] change in
                if change.plugged {
                    engine?.portsConnected([change.port])
                } else {
                    engine?.portsDisconnected([change.port.id])
                }
            }
            engine.portsConnected(monitor.pluggedPorts)
            jacks = monitor
        } catch {
            // Asked for by name: say why it is off. Derived from the output: say it only if it matters.
            if control != nil || device != nil { log.message("route monitoring off: \(error)") }
            return
        }
        do {
            let mixer = try MixerVolume(control: name) { [weak engine] level in
                engine?.outputVolumeChanged(level)
            }
            engine.outputVolumeChanged(mixer.current)
            volume = mixer
        } catch {
            log.message("output volume not followed: \(error)")
        }
    }

    func stop() {
        jacks?.stop()
        volume?.stop()
    }
}
