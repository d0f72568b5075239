import AudioServer
import SessionCore

/// The link's changes that the policy's thread has not taken yet. Consecutive updates are folded
/// into one — the first one's `previous`, the last one's `current`, every lost sink — so a burst
/// of events (500 streams appearing at once: ~2,000 events on PipeWire) waits as one change, not
/// as one inventory per event: each held change kept its own copy of the whole inventory, and
/// while the thread caught up the daemon's memory grew with the square of the burst (issue 24).
///
/// Folding is what the decisions already expect: they compare `previous` with `current` (what
/// appeared, what vanished, what changed), as they do when the server folds two changes of a
/// stream into one event. What they must not lose is a state in between: a stream that changed
/// in the waiting change and changes again — our duck landing, then restore-stream putting the
/// volume we ducked from back over it — would, folded, look unchanged, and the duck would never
/// be sent again. Such an update waits on its own (`hidesAState`); a flood's updates (streams
/// appearing, then changing while still new) fold. A connection or a disconnection is never
/// folded into an update that came before it, so each connection's reset and replay still happens
/// in order.
struct ChangeBacklog {
    private var waiting: [(change: InventoryChange, lost: [AudioPort])] = []

    /// Adds the link's next change; true when it waits on its own (the caller queues a job that
    /// takes it), false when it was folded into the change before it.
    mutating func add(_ change: InventoryChange, lost: [AudioPort]) -> Bool {
        if change.kind == .updated, let last = waiting.indices.last, Self.foldable(into: waiting[last].change.kind),
           !Self.hidesAState(change, after: waiting[last].change) {
            waiting[last].change.current = change.current
            waiting[last].lost += lost
            return false
        }
        waiting.append((change, lost))
        return true
    }

    /// The oldest change waiting, taken.
    mutating func take() -> (change: InventoryChange, lost: [AudioPort])? {
        waiting.isEmpty ? nil : waiting.removeFirst()
    }

    /// How many changes wait (for tests).
    var count: Int { waiting.count }

    /// Whether folding `next` into `waiting` would hide a state a decision may need: a stream
    /// that `waiting` changed (one it had before) changing again in `next`. One pass over `next`'s
    /// streams with a lookup each — the link already does as much per event.
    static func hidesAState(_ next: InventoryChange, after waiting: InventoryChange) -> Bool {
        for (id, now) in next.current.streams {
            guard let before = next.previous.streams[id], changed(before, now),
                  let first = waiting.previous.streams[id], let middle = waiting.current.streams[id] else { continue }
            if changed(first, middle) { return true }
        }
        return false
    }

    /// A change of what the decisions follow: volume, mute, cork, device.
    private static func changed(_ a: AudioStream, _ b: AudioStream) -> Bool {
        a.volume != b.volume || a.isMuted != b.isMuted || a.isCorked != b.isCorked || a.deviceIndex != b.deviceIndex
    }

    /// An update may join a waiting update or connection (whose reset then reads the later
    /// inventory), not a disconnection (whose `current` is the empty inventory of no server).
    private static func foldable(into kind: InventoryChange.Kind) -> Bool {
        switch kind {
        case .connected, .updated: true
        case .disconnected: false
        }
    }
}
