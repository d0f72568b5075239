import AudioPolicyClient
import AudioServer

/// The audio server's part of `GetStatus`: the link's inventory turned into the plain values of
/// the status document (`PolicyStatus.AudioServer`, `.Stream`, `.Device`), which apps read
/// without linking the `AudioServer` module.
///
/// Strings an app or a device chose (a stream's name, a media name, a port's description) are
/// carried as they are, only cut to `maxTextLength` Unicode scalars: the document is data for
/// programs, but one app's megabyte-long `media.name` must not make the whole `GetStatus` reply
/// too large for the bus.
public enum AudioServerStatus {
    /// What the daemon does to each stream: what it pairs it with (a session, a player) and what
    /// it is doing to it now; streams not listed get neither.
    public typealias Report = [StreamID: (session: String?, action: String?)]

    /// The longest string from outside the document carries, in Unicode scalars.
    public static let maxTextLength = 256

    /// Adds the server, its streams and its devices to `status` from `link` now; `report` says
    /// what the daemon does to each stream. Takes the link's lock once; never blocks on the server.
    /// `wirePlumberPauses`: WirePlumber pauses MPRIS players on device loss itself.
    public static func fill(_ status: inout PolicyStatus, link: AudioServerLink, report: Report,
                            wirePlumberPauses: Bool = false) {
        let inventory = link.inventory
        let reason = inventory.server == nil ? (link.absenceReason ?? "not connected") : nil
        fill(&status, inventory: inventory, address: link.address, absenceReason: reason, report: report)
        if inventory.server != nil {
            status.audioServer?.deviceLossPausedBy = wirePlumberPauses ? "WirePlumber" : "mprisd"
        }
    }

    /// Adds `inventory` to `status`: connected when it has a server, else not, for
    /// `absenceReason`.
    public static func fill(_ status: inout PolicyStatus, inventory: AudioInventory, address: ServerAddress,
                            absenceReason: String?, report: Report) {
        status.audioServer = server(inventory.server, address: address, absenceReason: absenceReason)
        status.streams = inventory.sortedStreams.map { stream(of: $0, in: inventory, report: report[$0.id]) }
        status.devices = inventory.sortedDevices.map { device(of: $0, in: inventory) }
    }

    static func server(_ identity: ServerIdentity?, address: ServerAddress, absenceReason: String?) -> PolicyStatus.AudioServer {
        guard let identity else {
            return PolicyStatus.AudioServer(connected: false, address: cut(address.description),
                                            reason: cut(absenceReason ?? "not connected"))
        }
        return PolicyStatus.AudioServer(connected: true, name: cut(identity.name), version: cut(identity.version),
                                        address: cut(address.description))
    }

    static func stream(of stream: AudioStream, in inventory: AudioInventory,
                       report: (session: String?, action: String?)?) -> PolicyStatus.Stream {
        PolicyStatus.Stream(
            direction: stream.id.direction.rawValue, index: stream.id.index,
            application: stream.applicationName.map(cut), binary: stream.binary.map(cut),
            pid: stream.processID, role: stream.role.map(cut), mediaName: stream.mediaName.map(cut),
            device: inventory.device(of: stream).map { cut($0.name) },
            corked: stream.isCorked, volume: stream.volume.level, muted: stream.isMuted,
            monitor: inventory.isMonitorCapture(stream),
            session: report?.session.map(cut), action: report?.action.map(cut))
    }

    static func device(of device: AudioDevice, in inventory: AudioInventory) -> PolicyStatus.Device {
        let defaultName = device.id.kind == .sink ? inventory.defaultSink : inventory.defaultSource
        return PolicyStatus.Device(
            kind: device.id.kind.rawValue, name: cut(device.name), description: cut(device.description),
            isDefault: defaultName != nil && defaultName == device.name,
            available: device.isAvailable, monitor: device.isMonitor, muted: device.isMuted,
            ports: device.ports.map { port in
                PolicyStatus.DevicePort(name: cut(port.name), description: cut(port.description),
                                        available: port.availability.rawValue)
            },
            activePort: device.activePort.map(cut))
    }

    /// `text` cut to `maxTextLength` Unicode scalars, `…` marking the cut. Counted in scalars,
    /// not characters: one character can hold any number of combining marks.
    static func cut(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > maxTextLength else { return text }
        var kept = String.UnicodeScalarView(scalars.prefix(maxTextLength - 1))
        kept.append("…")
        return String(kept)
    }
}
