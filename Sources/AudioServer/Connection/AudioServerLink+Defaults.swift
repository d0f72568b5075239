import CPulse
import Posix

/// The default devices, read with the server info (`pa_context_get_server_info`): on a server
/// event, when a device comes or goes, and — while a sink exists but none is the default — again
/// after *any* event of the server and a few times with backoff.
///
/// Why: pipewire-pulse answers a client with no default sink ("@DEFAULT_SINK@") until
/// WirePlumber's choice reaches that client's view of the graph, and announces a new default only
/// when the device *it* considers the default changes — which it works out differently (the first
/// sink, where the server info wants the configured one or one with a driver priority). A link
/// that connected in between can wait forever for an event that never comes (seen in CI: a
/// reconnected link never learnt its default sink; on a loaded machine WirePlumber chose it more
/// than 6 s after the link connected). So, while the default is missing: every event of the server
/// (a device's change too) reads the server info again, and the link asks by itself 0.1, 0.2, 0.4
/// … 3.2 s apart, then every 3.2 s for a minute (23 reads, 63 s in all) — so a default chosen late
/// is learnt within 3.2 s of the choice, not after a doubling gap of 13 s (seen under
/// ThreadSanitizer in CI) — stopping as soon as a default is known. From the fourth check on, a
/// fresh client is asked too (`AudioServerLink+SecondOpinion`): a view that missed the choice is
/// never corrected by any event. PulseAudio, which always names one while a sink exists, never starts them; bounded, so
/// an idle link still wakes up zero times.
extension LinkCore {
    static let defaultCheckDelays: [Int64] = ([100, 200, 400, 800, 1600] + Array(repeating: 3200, count: 18)).map { $0 * 1_000_000 }

    /// Reads the server info again and applies it.
    func fetchServerInfo() {
        guard let context else { return }
        let request = pa_context_get_server_info(context, { _, info, userdata in
            guard let core = LinkCore.from(userdata) else { return }
            if let info { core.apply(server: info.pointee) }
            core.awaitDefaultIfMissing()
        }, userdata)
        if let request { pa_operation_unref(request) }
    }

    /// Arms the next read if a sink exists, none is the default and tries are left; cancels it
    /// once a default is known.
    func awaitDefaultIfMissing() {
        guard isDefaultSinkMissing else { return cancelDefaultCheck() }
        guard defaultCheckTimer == nil, defaultChecksDone < Self.defaultCheckDelays.count else { return }
        let delay = Self.defaultCheckDelays[defaultChecksDone]
        defaultChecksDone += 1
        defaultCheckTimer = loop.core.timer(at: MonotonicClock.nanoseconds() + delay) { [unowned self] _ in
            cancelDefaultCheck()
            fetchServerInfo()
            askSecondOpinion()
        }
    }

    /// Connected, a sink exists, and the server names none the default.
    var isDefaultSinkMissing: Bool {
        isConnected && working.defaultSink == nil && working.devices.keys.contains { $0.kind == .sink }
    }

    func cancelDefaultCheck() {
        if let defaultCheckTimer { loop.core.free(defaultCheckTimer) }
        defaultCheckTimer = nil
    }
}
