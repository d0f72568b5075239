import AudioServer
import SessionCore

/// Which ALSA cards the daemon reads the jacks of directly (`--control`, `JackMonitor`): for a
/// sink on such a card the jacks are the one source of plug state, so the server's view of the
/// same jacks (port availability, the active port) is not reported a second time.
public enum JackWatch: Sendable, Hashable {
    /// No jack monitor runs: the server's port availability is all there is.
    case none
    /// The jacks of card `index` are watched (`hw:N`).
    case card(Int)
    /// A control device without a card number (`default`, a `ctl.NAME` of the configuration, the
    /// tests' fake card): every ALSA sink is taken to be on the watched card.
    case anyCard

    /// The watch that reading `control`'s jacks means (nil: no jack monitor runs).
    public static func forControl(_ control: String?) -> JackWatch {
        guard let control else { return .none }
        if control.hasPrefix("hw:"), let index = Int(control.dropFirst(3).prefix { $0.isNumber }) {
            return .card(index)
        }
        return .anyCard
    }

    /// Whether `sink` is on a card whose jacks are watched directly.
    func covers(_ sink: AudioDevice) -> Bool {
        guard let card = sink.properties["alsa.card"] else { return false }  // not an ALSA sink
        switch self {
        case .none: return false
        case .anyCard: return true
        case .card(let index): return Int(card) == index
        }
    }
}

extension JackWatch {
    /// The server's sinks whose sound goes out through `port`, an output jack of the watched
    /// control device `control` (its ids are `CONTROL:NAME Jack`, `JackMonitor`): every sink on
    /// the watched card. None for any other port.
    func sinks(behind port: AudioPort, control: String?, in inventory: AudioInventory) -> [String] {
        guard let control, port.type.isOutput, port.id.hasPrefix(control + ":") else { return [] }
        return inventory.devices.values.filter { $0.id.kind == .sink && covers($0) }.map(\.name).sorted()
    }
}

/// How a sink of the audio server becomes an output port of the engine: id `pulse-sink:NAME`
/// (the server's name is stable across server restarts, its index is not), the sink's description
/// as the port's name, a type read from the sink's properties.
enum ServerSinkPort {
    static let idPrefix = "pulse-sink:"

    /// The port id of the sink named `name`.
    static func id(ofSink name: String) -> String { idPrefix + name }

    /// The name of the sink behind port `id`; nil for a port that is no sink of the server.
    static func sinkName(ofPort id: String) -> String? {
        id.hasPrefix(idPrefix) ? String(id.dropFirst(idPrefix.count)) : nil
    }

    /// The port for `sink`; `jacks` says whether its active port is the jacks' business.
    static func port(for sink: AudioDevice, jacks: JackWatch) -> AudioPort {
        let name = sink.description.isEmpty ? sink.name : sink.description
        return AudioPort(id: id(ofSink: sink.name), name: name, type: type(of: sink, jacks: jacks))
    }

    /// Whether `sink` is an output now: its active port is not reported unplugged — unless the
    /// jacks of its card are watched directly, which then say it (the sink itself stays a port).
    static func isAvailable(_ sink: AudioDevice, jacks: JackWatch) -> Bool {
        jacks.covers(sink) || sink.isAvailable
    }

    /// The port type from what the server says about the sink: the bus (Bluetooth, USB), then
    /// HDMI anywhere in the active port, profile or form factor, then headphones, then a speaker;
    /// anything else (a null sink, a line out, a virtual sink) is a line out, which automatic
    /// routing uses like any other non-private device. A sink on a watched card ignores its active
    /// port: the jack ports carry the headphones.
    static func type(of sink: AudioDevice, jacks: JackWatch) -> PortType {
        let properties = sink.properties
        let activePort = jacks.covers(sink) ? "" : (sink.activePort ?? "").lowercased()
        let formFactor = (properties["device.form_factor"] ?? "").lowercased()
        if isBluetooth(sink) { return isHandsFree(sink, activePort: activePort) ? .bluetoothHFP : .bluetoothA2DP }
        if (properties["device.bus"] ?? "").lowercased() == "usb" { return .usbAudio }
        if properties["tunnel.remote.server"] != nil || properties["raop.hostname"] != nil
            || properties["raop.ip"] != nil {
            return .network
        }
        let profile = (properties["device.profile.name"] ?? "").lowercased()
        if [activePort, profile, formFactor].contains(where: { $0.contains("hdmi") }) || formFactor == "tv" {
            return .hdmi
        }
        if formFactor == "headphone" || formFactor == "headset" || activePort.contains("headphone") {
            return .headphones
        }
        if formFactor == "speaker" || formFactor == "internal" || activePort.contains("speaker") {
            return .speaker
        }
        return .lineOut
    }

    /// A Bluetooth sink (BlueZ reports the same device).
    static func isBluetooth(_ sink: AudioDevice) -> Bool {
        (sink.properties["device.bus"] ?? "").lowercased() == "bluetooth"
    }

    /// A Bluetooth sink in a call profile (HSP/HFP), from either server's properties.
    private static func isHandsFree(_ sink: AudioDevice, activePort: String) -> Bool {
        let profile = (sink.properties["api.bluez5.profile"] ?? sink.properties["bluetooth.protocol"]
                       ?? sink.properties["device.profile.name"] ?? "").lowercased()
        return ["headset", "handsfree", "hfp", "hsp"].contains { profile.contains($0) || activePort.contains($0) }
    }
}
