import CPulse

/// The server's subscription events: each names one object; it is fetched again (one request,
/// its reply applied by `AudioServerLink+Inventory`) or, when removed, dropped at once.
extension LinkCore {
    /// A subscription event: fetch what changed, or drop what was removed.
    func event(_ type: UInt32, _ index: UInt32) {
        guard let context else { return }
        let facility = type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let kind = type & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        let removed = kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue
        // A device came or went — or, while no default sink is known, anything happened: a default
        // may exist now (`AudioServerLink+Defaults`); asked after the object itself, so that its
        // reply finds the device in the inventory.
        let isDevice = facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue || facility == PA_SUBSCRIPTION_EVENT_SOURCE.rawValue
        let isServer = facility == PA_SUBSCRIPTION_EVENT_SERVER.rawValue
        defer {
            if !isServer, (isDevice && kind != PA_SUBSCRIPTION_EVENT_CHANGE.rawValue) || isDefaultSinkMissing { fetchServerInfo() }
            // Defaults that only a fresh client could tell: asked again when they may have changed.
            if secondOpinionDefaults != nil, isDevice || isServer { askSecondOpinion() }
        }
        let request: OpaquePointer?
        switch facility {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue:
            if removed { return remove(device: DeviceID(.sink, index)) }
            request = pa_context_get_sink_info_by_index(context, index, { _, info, _, userdata in
                if let info { LinkCore.from(userdata)?.apply(device: AudioDevice(info.pointee)) }
            }, userdata)
        case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue:
            if removed { return remove(device: DeviceID(.source, index)) }
            request = pa_context_get_source_info_by_index(context, index, { _, info, _, userdata in
                if let info { LinkCore.from(userdata)?.apply(device: AudioDevice(info.pointee)) }
            }, userdata)
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
            if isOverQuota(StreamID(.playback, index), removed: removed) { return }
            if removed { return remove(stream: StreamID(.playback, index)) }
            request = pa_context_get_sink_input_info(context, index, { _, info, _, userdata in
                if let info { LinkCore.from(userdata)?.apply(stream: RawStream(info.pointee)) }
            }, userdata)
        case PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT.rawValue:
            if isOverQuota(StreamID(.capture, index), removed: removed) { return }
            if removed { return remove(stream: StreamID(.capture, index)) }
            request = pa_context_get_source_output_info(context, index, { _, info, _, userdata in
                if let info { LinkCore.from(userdata)?.apply(stream: RawStream(info.pointee)) }
            }, userdata)
        case PA_SUBSCRIPTION_EVENT_CLIENT.rawValue:
            if removed { clients[index] = nil; forgetQuota(of: index); return }
            request = pa_context_get_client_info(context, index, { _, info, _, userdata in
                if let info { LinkCore.from(userdata)?.apply(client: info.pointee.index, decodeProplist(info.pointee.proplist)) }
            }, userdata)
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            return fetchServerInfo()
        default:
            return
        }
        if let request { pa_operation_unref(request) }
    }
}
