import AudioDevices
import DBus
import SessionCore
import SessionService

/// The player's view of the machine's outputs: the jacks and the mixer of its control device,
/// fed into the session (G-HEADPHONES-OUT/IN, G-VOLUME: the volume is only read).
///
/// Optional by nature: a control device that cannot be opened is reported once and playback goes
/// on without route monitoring.
struct RouteMonitoring {
    private(set) var jacks: JackMonitor?
    private(set) var volume: MixerVolume?
    private(set) var bluetooth: BluetoothMonitor?
    private(set) var systemBus: Connection?

    private(set) var pickWatcher: StateFileWatcher?

    /// Starts watching `control` (or the card behind `device`) for `engine`, then applies the
    /// outputs of the configuration and the user's route pick, and follows the pick.
    init(control: String?, device: String?, engine: PlayerEngine, log: PlayerLog) {
        watchBluetooth(engine: engine)
        watchCard(control: control, device: device, engine: engine, log: log)
        followRoutePick(engine: engine, log: log)
    }

    private mutating func watchCard(control: String?, device: String?, engine: PlayerEngine, log: PlayerLog) {
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

    /// Outputs named in the configuration and the persisted pick (`mprisd route use`), followed
    /// through the state file while playing.
    private mutating func followRoutePick(engine: PlayerEngine, log: PlayerLog) {
        let config = ConfigFile.load()
        let (outputs, problems) = ConfiguredOutput.outputs(in: config)
        for problem in problems { log.message(problem) }
        engine.addConfiguredOutputs(outputs)
        engine.routePicked(RoutePick.read())
        do {
            pickWatcher = try StateFileWatcher(RoutePick.file) { [weak engine] value in
                engine?.routePicked(value.flatMap { $0.isEmpty ? nil : $0 })
            }
        } catch {
            log.message("the route pick is not followed while playing: \(error)")
        }
    }

    /// Bluetooth headsets (BlueZ on the system bus). Quiet by design: no system bus or no BlueZ
    /// simply means no Bluetooth routes.
    private mutating func watchBluetooth(engine: PlayerEngine) {
        guard let connection = try? Connection(bus: .system) else { return }
        let monitor = BluetoothMonitor(connection: connection) { [weak engine] event in
            switch event {
            case .connected(let port): engine?.portsConnected([port])
            case .disconnected(let port): engine?.portsDisconnected([port.id])
            }
        }
        monitor.start { _ in }
        bluetooth = monitor
        systemBus = connection
    }

    func stop() {
        pickWatcher?.stop()
        jacks?.stop()
        volume?.stop()
        bluetooth?.stop()
        systemBus?.close()
    }
}
