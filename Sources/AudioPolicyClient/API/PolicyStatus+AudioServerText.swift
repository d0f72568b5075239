import Posix

/// The audio server in `mprisd status` for people: one header line, then every stream and every
/// device as a table.
///
/// ```
/// Audio server  connected to pulseaudio 16.1 at /run/user/1000/pulse/native
///
/// Streams
///   ID  APP     ROLE   DIRECTION  DEVICE       VOLUME  STATE    SESSION  DAEMON
///   12  paplay  music  playback   mprisd_null  100%    running  -        -
///
/// Devices
///   KIND     NAME                 DESCRIPTION             DEFAULT  AVAILABLE  PORTS
///   sink     mprisd_null          Null Output             *        yes        -
///   monitor  mprisd_null.monitor  Monitor of Null Output  -        yes        -
/// ```
///
/// Every name here was chosen by someone else — an app names its own stream, a driver or a
/// Bluetooth device its device — so each one has its control characters escaped and is cut to
/// a width that keeps a row on one line of a terminal (`…` marks the cut; the escapes count).
/// A daemon that follows no server (`audioServer` nil) adds nothing.
extension PolicyStatus {
    /// How many characters of each outside name a row shows.
    enum ShownLength {
        static let application = 32
        static let role = 24
        static let device = 48
        static let description = 40
        static let session = 40
        static let action = 64
        static let port = 32
        static let ports = 120
    }

    /// The header's `Audio server` row, when the daemon follows one.
    var audioServerRows: [[TextTable.Cell]] {
        guard let audioServer else { return [] }
        return [[TextTable.Cell("Audio server"), audioServer.cell]]
    }

    /// The `Streams` and `Devices` sections (each after a blank line), when the daemon follows
    /// a server.
    func audioServerSections(colour: Bool) -> [String] {
        guard audioServer != nil || streams != nil || devices != nil else { return [] }
        var lines = [""]
        lines += section("Streams", columns: ["ID", "APP", "ROLE", "DIRECTION", "DEVICE", "VOLUME", "STATE", "SESSION", "DAEMON"],
                         rows: (streams ?? []).map(\.row), colour: colour)
        lines.append("")
        lines += section("Devices", columns: ["KIND", "NAME", "DESCRIPTION", "DEFAULT", "AVAILABLE", "PORTS"],
                         rows: (devices ?? []).map(\.row), colour: colour)
        return lines
    }

    /// `text` cut to `length` characters (control characters escaped), `-` when absent or empty.
    static func shown(_ text: String?, _ length: Int) -> String {
        guard let text, !text.isEmpty else { return "-" }
        return TerminalText.sanitized(text, maxLength: length)
    }

    /// A stream's volume level as a percentage (`1.5` → `150%`); not a number → `unknown`.
    static func streamPercent(_ level: Double) -> String {
        guard level.isFinite else { return "unknown" }
        // Bounded before the conversion: a document from elsewhere may say anything.
        return "\(Int((min(max(level, 0), 100) * 100).rounded()))%"
    }
}

extension PolicyStatus.AudioServer {
    /// `connected to NAME VERSION at ADDRESS` or `not connected: REASON`.
    var text: String {
        guard connected else {
            return "not connected: " + PolicyStatus.shown(reason ?? "unknown reason", TerminalText.defaultMaxLength)
        }
        let identity = [name, version].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        // Only said when another actor pauses: mprisd pausing is what the rest of the status shows.
        let pauses = deviceLossPausedBy == "WirePlumber"
            ? "; WirePlumber pauses players whose device goes away (linking.pause-playback)" : ""
        return "connected to \(identity.isEmpty ? "a server" : identity) at \(address)\(pauses)"
    }

    fileprivate var cell: TextTable.Cell {
        TextTable.Cell(text, connected ? .green : .yellow)
    }
}

extension PolicyStatus.Stream {
    /// The app's name: `application.name`, else its binary, else the media name.
    var app: String {
        [application, binary, mediaName].compactMap { $0 }.first { !$0.isEmpty } ?? "-"
    }

    /// `corked`, `muted`, both, or `running`.
    var state: String {
        let flags = (corked ? ["corked"] : []) + (muted ? ["muted"] : [])
        return flags.isEmpty ? "running" : flags.joined(separator: ",")
    }

    fileprivate var row: [TextTable.Cell] {
        typealias Length = PolicyStatus.ShownLength
        return [
            TextTable.Cell(String(index)),
            TextTable.Cell(PolicyStatus.shown(app, Length.application)),
            TextTable.Cell(PolicyStatus.shown(role, Length.role)),
            TextTable.Cell(monitor ? "\(direction) (monitor)" : direction),
            TextTable.Cell(PolicyStatus.shown(device, Length.device)),
            TextTable.Cell(PolicyStatus.streamPercent(volume)),
            TextTable.Cell(state, muted ? .yellow : (state == "running" ? .green : .none)),
            TextTable.Cell(PolicyStatus.shown(session, Length.session)),
            TextTable.Cell(PolicyStatus.shown(action, Length.action), action == nil ? .none : .yellow),
        ]
    }
}

extension PolicyStatus.Device {
    /// `sink`, `source`, or `monitor` for a monitor source.
    var shownKind: String { monitor ? "monitor" : kind }

    /// `speaker (active), headphones (unplugged)`; `-` without ports.
    var portsText: String {
        typealias Length = PolicyStatus.ShownLength
        let shown = ports.map { port in
            var tags: [String] = []
            if port.name == activePort { tags.append("active") }
            switch port.available {
            case "yes": tags.append("plugged")
            case "no": tags.append("unplugged")
            default: break
            }
            let name = PolicyStatus.shown(port.name, Length.port)
            return tags.isEmpty ? name : "\(name) (\(tags.joined(separator: ", ")))"
        }
        return PolicyStatus.shown(shown.joined(separator: ", "), Length.ports)
    }

    fileprivate var row: [TextTable.Cell] {
        typealias Length = PolicyStatus.ShownLength
        return [
            TextTable.Cell(shownKind),
            TextTable.Cell(PolicyStatus.shown(name, Length.device)),
            TextTable.Cell(PolicyStatus.shown(description, Length.description)),
            TextTable.Cell(isDefault ? "*" : "-", isDefault ? .green : .none),
            TextTable.Cell(available ? "yes" : "no", available ? .none : .yellow),
            TextTable.Cell(portsText),
        ]
    }
}
