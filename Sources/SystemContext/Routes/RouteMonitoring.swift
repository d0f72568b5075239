import AudioDevices
import DBus
import SessionCore

/// The machine's outputs as the player or the daemon sees them: the jacks and the mixer of one
/// control device, Bluetooth audio devices, the outputs named in the configuration and the user's
/// persisted route pick — all fed into a `SystemRouting` (G-HEADPHONES-OUT/IN, G-ROUTE-PICK,
/// G-VOLUME: the volume is only read). Each source has a thread of its own asleep in `poll()`.
///
/// Optional by nature: a control device that cannot be opened is reported once and the rest goes
/// on without it.
public struct RouteMonitoring: Sendable {
    private(set) var jacks: JackMonitor?
    private(set) var volume: MixerVolume?
    private(set) var bluetooth: BluetoothMonitor?
    /// The system-bus connection made here for BlueZ (nil when the caller lent one: it closes it).
    private(set) var ownSystemBus: Connection?

    private(set) var pickWatcher: StateFileWatcher?

    /// The control device whose jacks are read directly (nil: none is, or it has no jacks): the
    /// audio server's view of the same jacks must not be reported a second time.
    public var jackControl: String? { jacks?.control }

    /// Whether Bluetooth audio devices are followed through BlueZ directly (the audio server's
    /// Bluetooth sinks are the same devices).
    public var followsBluetooth: Bool { bluetooth != nil }

    /// Starts watching `control` (or the card behind `device`) for `routing`, then applies the
    /// outputs of the configuration and the user's route pick, and follows the pick. BlueZ is
    /// followed on `systemBus` when given (the daemon's one system-bus connection; it stays the
    /// caller's), else on a connection of its own.
    public init(control: String?, device: String?, routing: SystemRouting, systemBus: Connection? = nil,
                log: @escaping @Sendable (String) -> Void) {
        watchBluetooth(routing: routing, systemBus: systemBus)
        watchCard(control: control, device: device, routing: routing, log: log)
        followRoutePick(routing: routing, log: log)
    }

    private mutating func watchCard(control: String?, device: String?, routing: SystemRouting, log: @escaping @Sendable (String) -> Void) {
        let name = control ?? ControlName.forPCM(device ?? OutputSelection.defaultDevice)
        guard let name else { return }  // an output without a card (null, pulse, a file): nothing to watch
        do {
            let monitor = try JackMonitor(control: name) { [weak routing] change in
                if change.plugged {
                    routing?.portsConnected([change.port])
                } else {
                    routing?.portsDisconnected([change.port.id])
                }
            }
            routing.portsConnected(monitor.pluggedPorts)
            // A control device without jacks (ALSA's `default` is the audio server's plugin on a
            // desktop) watches nothing: keeping it would make the server's own view of the card's
            // ports count for nothing (`jackControl`).
            if monitor.ports.isEmpty { monitor.stop() } else { jacks = monitor }
        } catch {
            // Asked for by name: say why it is off. Derived from the output: say it only if it matters.
            if control != nil || device != nil { log("route monitoring off: \(error)") }
            return
        }
        do {
            let mixer = try MixerVolume(control: name) { [weak routing] level in
                routing?.outputVolumeChanged(level)
            }
            routing.outputVolumeChanged(mixer.current)
            volume = mixer
        } catch {
            log("output volume not followed: \(error)")
        }
    }

    /// Outputs named in the configuration and the persisted pick (`mprisd route use`), followed
    /// through the state file while playing.
    private mutating func followRoutePick(routing: SystemRouting, log: @escaping @Sendable (String) -> Void) {
        let config = ConfigFile.load()
        let (outputs, problems) = ConfiguredOutput.outputs(in: config)
        for problem in problems { log(problem) }
        routing.addConfiguredOutputs(outputs)
        routing.routePicked(RoutePick.read())
        do {
            pickWatcher = try StateFileWatcher(RoutePick.file) { [weak routing] value in
                routing?.routePicked(value.flatMap { $0.isEmpty ? nil : $0 })
            }
        } catch {
            log("the route pick is not followed while playing: \(error)")
        }
    }

    /// Bluetooth headsets (BlueZ on the system bus). Quiet by design: no system bus or no BlueZ
    /// simply means no Bluetooth routes.
    private mutating func watchBluetooth(routing: SystemRouting, systemBus: Connection?) {
        let own = systemBus == nil ? try? Connection(bus: .system) : nil
        guard let connection = systemBus ?? own else { return }
        let monitor = BluetoothMonitor(connection: connection) { [weak routing] event in
            switch event {
            case .connected(let port): routing?.portsConnected([port])
            case .disconnected(let port): routing?.portsDisconnected([port.id])
            }
        }
        monitor.start { _ in }
        bluetooth = monitor
        ownSystemBus = own
    }

    public func stop() {
        pickWatcher?.stop()
        jacks?.stop()
        volume?.stop()
        bluetooth?.stop()
        ownSystemBus?.close()
    }
}
