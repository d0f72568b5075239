import CPulse

extension AudioDevice {
    /// From `pa_sink_info`.
    init(_ info: pa_sink_info) {
        self.init(id: DeviceID(.sink, info.index), name: optionalString(info.name) ?? "",
                  description: optionalString(info.description) ?? "",
                  ports: decodePorts(info.ports, count: info.n_ports),
                  activePort: info.active_port.flatMap { optionalString($0.pointee.name) },
                  volume: decodeVolume(info.volume), isMuted: info.mute != 0, monitorOfSink: nil,
                  properties: decodeProplist(info.proplist))
    }

    /// From `pa_source_info`.
    init(_ info: pa_source_info) {
        self.init(id: DeviceID(.source, info.index), name: optionalString(info.name) ?? "",
                  description: optionalString(info.description) ?? "",
                  ports: decodePorts(info.ports, count: info.n_ports),
                  activePort: info.active_port.flatMap { optionalString($0.pointee.name) },
                  volume: decodeVolume(info.volume), isMuted: info.mute != 0,
                  monitorOfSink: validIndex(info.monitor_of_sink),
                  properties: decodeProplist(info.proplist))
    }
}

/// The ports of a sink or source (`pa_sink_port_info` and `pa_source_port_info` have the same
/// leading fields: name, description, priority, available).
private func decodePorts<Port: PortInfo>(_ ports: UnsafeMutablePointer<UnsafeMutablePointer<Port>?>?,
                                         count: UInt32) -> [DevicePort] {
    guard let ports else { return [] }
    return (0..<Int(count)).compactMap { index in
        guard let port = ports[index]?.pointee else { return nil }
        return DevicePort(name: optionalString(port.name) ?? "", description: optionalString(port.description) ?? "",
                          availability: availability(port.available), priority: port.priority)
    }
}

/// `pa_port_available_t`.
private func availability(_ value: Int32) -> DevicePort.Availability {
    switch UInt32(bitPattern: value) {
    case PA_PORT_AVAILABLE_NO.rawValue: .no
    case PA_PORT_AVAILABLE_YES.rawValue: .yes
    default: .unknown
    }
}

/// What the port decoder reads of `pa_sink_port_info` / `pa_source_port_info`.
protocol PortInfo {
    var name: UnsafePointer<CChar>! { get }
    var description: UnsafePointer<CChar>! { get }
    var priority: UInt32 { get }
    var available: Int32 { get }
}

extension pa_sink_port_info: PortInfo {}
extension pa_source_port_info: PortInfo {}

extension ServerIdentity {
    /// From `pa_server_info`.
    init(_ info: pa_server_info) {
        self.init(name: optionalString(info.server_name) ?? "", version: optionalString(info.server_version) ?? "",
                  cookie: info.cookie)
    }
}
