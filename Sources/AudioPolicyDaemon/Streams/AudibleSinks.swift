import AudioServer

/// Where each managed session is audible — the sinks its own playback streams play on — and the
/// rule that makes device loss a matter of the stream, not of one route for everyone
/// (G-HEADPHONES-OUT on a desktop where every player's sound has its own sink):
///
/// - A session loses its device when a sink that one of its streams plays on goes away (or its
///   active port is unplugged) — and only then: a sink nobody plays on pauses nobody.
/// - A session with streams on several sinks loses its device only if it becomes audible
///   somewhere it was not: the streams of a lost sink move to the server's default sink, so when
///   that default is one of the session's other sinks it is spared. Where the default is unknown
///   or is the lost sink itself, the move's end is unknown and privacy wins: it loses its device.
/// - Kept across a server restart: a session that played on a sink that does not come back
///   loses it at the reconnection (its streams were torn down with the server, so the memory,
///   not the new inventory, says where it was).
///
/// The order of the server's events makes this work with the inventory before the change: both
/// servers report the sink's removal before the moved stream's new sink (PulseAudio sends the
/// move first, but its details arrive only with the reply to the fetch it causes, after the
/// removal; PipeWire relinks later still). Pure; `StreamPolicy` keeps it current.
struct AudibleSinks: Sendable, Hashable {
    /// Session number → the names of the sinks its streams play on, as of the last change.
    private(set) var bySession: [UInt64: Set<String>] = [:]

    init(bySession: [UInt64: Set<String>] = [:]) {
        self.bySession = bySession
    }

    /// Recomputed from the paired streams of a connected server's `inventory` (a stream on a
    /// sink that is gone counts nowhere until the server says where it went).
    mutating func update(pairs: [StreamID: UInt64], in inventory: AudioInventory) {
        var audible: [UInt64: Set<String>] = [:]
        for (id, session) in pairs where id.direction == .playback {
            guard let stream = inventory.streams[id], let sink = inventory.device(of: stream) else { continue }
            audible[session, default: []].insert(sink.name)
        }
        bySession = audible
    }

    /// The sessions that lose their device when the sinks `lost` go away, each with the lost
    /// sinks it played on (sorted); `destination` is where the server sends their streams (its
    /// default sink now; nil or a lost sink: unknown).
    func losses(of lost: Set<String>, destination: String?) -> [UInt64: [String]] {
        guard !lost.isEmpty else { return [:] }
        let landing = destination.flatMap { lost.contains($0) ? nil : $0 }
        var losses: [UInt64: [String]] = [:]
        for (session, sinks) in bySession {
            let gone = sinks.intersection(lost)
            guard !gone.isEmpty else { continue }
            if let landing, sinks.subtracting(lost).contains(landing) { continue }
            losses[session] = gone.sorted()
        }
        return losses
    }

    /// The sinks session `number` is audible on, sorted.
    func sinks(of number: UInt64) -> [String] {
        (bySession[number] ?? []).sorted()
    }
}
