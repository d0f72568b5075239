import CPulse

/// The inventory: subscribed first, then listed; `.connected` once every list is complete; then
/// one fetch per event (`.updated`). Each event costs a dictionary update and the publication
/// (a copy-on-write copy), whatever the number of streams.
extension LinkCore {
    /// Subscribes (before listing, so nothing is missed between the lists and the events), then
    /// asks for the server info, devices, clients (before the streams, so a stream's client is
    /// known when it arrives: replies come in request order) and streams.
    func startListing() {
        guard let context else { return }
        working = AudioInventory()
        rawStreams = [:]
        clients = [:]
        streamsByClient = [:]
        overQuota = []
        quotaLogged = []
        reportedDefaults = (nil, nil)
        defaultChecksDone = 0
        pa_context_set_subscribe_callback(context, { _, type, index, userdata in
            LinkCore.from(userdata)?.event(type.rawValue, index)
        }, userdata)
        let mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
            | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue
            | PA_SUBSCRIPTION_MASK_SERVER.rawValue | PA_SUBSCRIPTION_MASK_CLIENT.rawValue
        let requests: [OpaquePointer?] = [
            pa_context_subscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil),
            pa_context_get_server_info(context, { _, info, userdata in
                guard let core = LinkCore.from(userdata) else { return }
                if let info { core.apply(server: info.pointee) }
                core.listDone()
            }, userdata),
            pa_context_get_sink_info_list(context, { _, info, eol, userdata in
                LinkCore.from(userdata)?.listed(eol) { $0.apply(device: AudioDevice(info?.pointee)) }
            }, userdata),
            pa_context_get_source_info_list(context, { _, info, eol, userdata in
                LinkCore.from(userdata)?.listed(eol) { $0.apply(device: AudioDevice(info?.pointee)) }
            }, userdata),
            pa_context_get_client_info_list(context, { _, info, eol, userdata in
                LinkCore.from(userdata)?.listed(eol) { core in
                    if let info { core.apply(client: info.pointee.index, decodeProplist(info.pointee.proplist)) }
                }
            }, userdata),
            pa_context_get_sink_input_info_list(context, { _, info, eol, userdata in
                LinkCore.from(userdata)?.listed(eol) { core in
                    if let info { core.apply(stream: RawStream(info.pointee)) }
                }
            }, userdata),
            pa_context_get_source_output_info_list(context, { _, info, eol, userdata in
                LinkCore.from(userdata)?.listed(eol) { core in
                    if let info { core.apply(stream: RawStream(info.pointee)) }
                }
            }, userdata),
        ]
        phase = .listing(pending: requests.count - 1)
        for request in requests {
            guard let request else { return pa_context_disconnect(context) }
            pa_operation_unref(request)
        }
    }

    /// One callback of a list: an item (`eol == 0`) or its end.
    private func listed(_ eol: Int32, _ item: (LinkCore) -> Void) {
        if eol == 0 { return item(self) }
        listDone()
    }

    /// A list is complete; after the last, `.connected`.
    private func listDone() {
        guard case .listing(let pending) = phase else { return }
        if pending > 1 { phase = .listing(pending: pending - 1); return }
        phase = .connected
        absenceLogged = false
        shared.absence.withLock { $0 = nil }
        if let server = working.server { log("connected to the audio server: \(server.name) \(server.version)") }
        publish(.connected, previous: AudioInventory())
        awaitDefaultIfMissing()
    }

    /// Changes `working` (the callers checked that it is a change); once connected, publishes
    /// `.updated`.
    func change(_ body: (LinkCore) -> Void) {
        guard isConnected else { return body(self) }
        let previous = working
        body(self)
        publish(.updated, previous: previous)
    }

    func apply(server info: pa_server_info) {
        let server = ServerIdentity(info)
        reportedDefaults = ownViewHasNoDefaults ? (nil, nil)
            : (defaultDeviceName(info.default_sink_name), defaultDeviceName(info.default_source_name))
        let (sink, source) = effectiveDefaults()
        guard working.server != server || working.defaultSink != sink || working.defaultSource != source else { return }
        change { core in
            core.working.server = server
            core.working.defaultSink = sink
            core.working.defaultSource = source
        }
    }

    func apply(device: AudioDevice?) {
        guard let device, working.devices[device.id] != device else { return }
        change { $0.working.devices[device.id] = device }
    }

    func remove(device id: DeviceID) {
        guard working.devices[id] != nil else { return }
        change { $0.working.devices[id] = nil }
    }

    func apply(stream raw: RawStream) {
        guard admits(raw) else { return }
        let id = raw.stream.id
        if let old = rawStreams[id]?.client, old != raw.client { streamsByClient[old]?.remove(id) }
        if let client = raw.client { streamsByClient[client, default: []].insert(id) }
        rawStreams[id] = raw
        let merged = raw.merged(clientProperties: raw.client.flatMap { clients[$0] })
        guard working.streams[id] != merged else { return }
        change { $0.working.streams[id] = merged }
    }

    func remove(stream id: StreamID) {
        guard let raw = rawStreams.removeValue(forKey: id) else { return }
        defer { if working.streams[id] != nil { change { $0.working.streams[id] = nil } } }
        if let client = raw.client {
            streamsByClient[client]?.remove(id)
            if streamsByClient[client]?.isEmpty == true { streamsByClient[client] = nil }
        }
    }

    /// A client's properties: its streams are merged again (only its own, through the index).
    func apply(client index: UInt32, _ properties: [String: String]) {
        guard clients[index] != properties else { return }
        clients[index] = properties
        let merged = (streamsByClient[index] ?? []).compactMap { id in
            rawStreams[id].map { $0.merged(clientProperties: properties) }
        }.filter { working.streams[$0.id] != $0 }
        guard !merged.isEmpty else { return }
        change { core in
            for stream in merged { core.working.streams[stream.id] = stream }
        }
    }
}

/// A default device's name; nil for none. pipewire-pulse names no device before WirePlumber chose
/// one (right after it starts): it then reports "@DEFAULT_SINK@" / "@DEFAULT_SOURCE@".
/// A default device's name; nil for none ("", "@DEFAULT_SINK@").
func defaultDeviceName(_ name: UnsafePointer<CChar>?) -> String? {
    guard let name = optionalString(name), !name.isEmpty, !(name.hasPrefix("@") && name.hasSuffix("@")) else { return nil }
    return name
}

private extension AudioDevice {
    init?(_ info: pa_sink_info?) {
        guard let info else { return nil }
        self.init(info)
    }

    init?(_ info: pa_source_info?) {
        guard let info else { return nil }
        self.init(info)
    }
}
