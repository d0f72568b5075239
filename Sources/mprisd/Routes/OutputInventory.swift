import AudioDevices
import DBus
import Posix
import SessionCore
import SystemContext

/// The outputs that exist on this machine, for `mprisd route list` and the checks of
/// `mprisd route use`: the built-in speaker, the jacks of the control device (plugged or not), the
/// Bluetooth audio devices BlueZ has connected, and the ALSA devices named in the configuration.
struct OutputInventory {
    /// One output and whether audio could go there now.
    struct Entry {
        var port: AudioPort
        /// Plugged / connected / declared: a pick of it takes effect at once.
        var available: Bool
        /// Extra detail: the PCM of a configured output.
        var detail: String?
    }

    var entries: [Entry] = []
    /// Why a source could not be read (shown, never fatal: the rest is still listed).
    var notes: [String] = []

    /// Reads every source. `control`: the ALSA control device for jacks (default: the card of
    /// ALSA's default PCM, if it has one).
    static func gather(control: String?) -> OutputInventory {
        var inventory = OutputInventory()
        inventory.entries.append(Entry(port: .speaker, available: true))
        inventory.addJacks(control: control)
        inventory.addBluetooth()
        let (outputs, problems) = ConfiguredOutput.outputs(in: ConfigFile.load())
        inventory.notes += problems
        for output in outputs {
            inventory.entries.append(Entry(port: output.port, available: true, detail: output.pcm))
        }
        return inventory
    }

    /// Whether `id` names an output that exists (available now or not).
    func contains(_ id: String) -> Bool { entries.contains { $0.port.id == id } }

    private mutating func addJacks(control: String?) {
        guard let name = control ?? ControlName.forPCM(OutputSelection.defaultDevice) else { return }
        do {
            let monitor = try JackMonitor(control: name) { _ in }
            defer { monitor.stop() }
            let plugged = Set(monitor.pluggedPorts.map(\.id))
            for port in monitor.ports where port.type.isOutput {
                entries.append(Entry(port: port, available: plugged.contains(port.id)))
            }
        } catch {
            if control != nil { notes.append("jacks of \(name) not read: \(error)") }
        }
    }

    /// Connected Bluetooth audio devices; no system bus or no BlueZ simply means none.
    private mutating func addBluetooth() {
        guard let connection = try? Connection(bus: .system) else { return }
        defer { connection.close() }
        let monitor = BluetoothMonitor(connection: connection) { _ in }
        defer { monitor.stop() }
        let done = Latch<Void>()
        monitor.start { _ in done.open() }
        guard done.wait(timeout: .seconds(3)) != nil else {
            notes.append("BlueZ did not answer within 3 s; Bluetooth outputs not listed")
            return
        }
        for port in monitor.routes where port.type.isOutput {
            entries.append(Entry(port: port, available: true))
        }
    }
}
