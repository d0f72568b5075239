import CPulse

/// A second opinion on the default devices, from a client that has just connected.
///
/// pipewire-pulse keeps a view of the graph per client, and a client's default sink is what the
/// "default" metadata said *to that client*: one that missed WirePlumber's choice goes on
/// answering "@DEFAULT_SINK@" while every new client is told the sink (seen in CI under
/// ThreadSanitizer: 65 s of server-info reads without a default, while `pactl get-default-sink`
/// named it all along — issue 24 #7). No event of ours will ever correct such a view. So while
/// the default is missing (`AudioServerLink+Defaults`), each timed check from the third on also
/// asks a fresh client — a second `pa_context` that connects, reads the server info once and
/// disconnects — and its defaults stand in for ours until our own view names one (then ours wins
/// and the opinion is dropped). Bounded like the checks; PulseAudio, which always names a
/// default while a sink exists, never gets here.
extension LinkCore {
    /// The checks done before the first second opinion (0.1 + 0.2 + 0.4 s: a default on its way
    /// through our own view comes within those).
    static let checksBeforeSecondOpinion = 3

    /// Asks a fresh client for the defaults; while one is asking, once more after it (what it
    /// read may be from before the event that asks).
    func askSecondOpinion() {
        guard let server = connectedServer, defaultChecksDone > Self.checksBeforeSecondOpinion else { return }
        guard secondOpinion == nil else { return secondOpinionAgain = true }
        secondOpinionAgain = false
        let properties = pa_proplist_new()
        pa_proplist_sets(properties, "application.name", "mprisd (default devices)")
        pa_proplist_sets(properties, "application.id", "org.mprisd.AudioPolicy")
        let created = pa_context_new_with_proplist(loop.core.api, "mprisd", properties)
        pa_proplist_free(properties)
        guard let created else { return }
        secondOpinion = created
        pa_context_set_state_callback(created, { context, userdata in
            guard let core = LinkCore.from(userdata), let context, context == core.secondOpinion else { return }
            switch pa_context_get_state(context) {
            case PA_CONTEXT_READY:
                let request = pa_context_get_server_info(context, { context, info, userdata in
                    guard let core = LinkCore.from(userdata), context == core.secondOpinion else { return }
                    if let info {
                        core.opinion(sink: defaultDeviceName(info.pointee.default_sink_name),
                                     source: defaultDeviceName(info.pointee.default_source_name))
                    }
                    core.endSecondOpinion()
                }, userdata)
                if let request { pa_operation_unref(request) } else { core.endSecondOpinion() }
            case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
                core.endSecondOpinion()
            default:
                break
            }
        }, userdata)
        if pa_context_connect(created, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 { endSecondOpinion() }
    }

    /// What the fresh client was told: kept while our own view names no default, applied now.
    private func opinion(sink: String?, source: String?) {
        guard isConnected, reportedDefaults.sink == nil else { return }
        secondOpinionDefaults = (sink, source)
        let effective = effectiveDefaults()
        guard effective.sink != working.defaultSink || effective.source != working.defaultSource else { return }
        change { core in
            core.working.defaultSink = effective.sink
            core.working.defaultSource = effective.source
        }
    }

    /// The defaults to keep: our view's where it names one (`reportedDefaults`), else the second
    /// opinion's — while that device is still in the inventory.
    func effectiveDefaults() -> (sink: String?, source: String?) {
        let (sink, source) = reportedDefaults
        if sink != nil { secondOpinionDefaults = nil }
        let opinion = secondOpinionDefaults
        func present(_ name: String?, _ kind: DeviceKind) -> String? {
            guard let name, working.devices.contains(where: { $0.key.kind == kind && $0.value.name == name }) else { return nil }
            return name
        }
        return (sink ?? present(opinion?.sink, .sink), source ?? present(opinion?.source, .source))
    }

    /// Lets the fresh client go (also when the link drops its own context); asks again if an
    /// event asked meanwhile.
    func endSecondOpinion() {
        guard let context = secondOpinion else { return }
        secondOpinion = nil
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        if secondOpinionAgain, isConnected { askSecondOpinion() }
    }
}
