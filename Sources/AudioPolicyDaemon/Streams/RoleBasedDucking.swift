import AudioServer

/// WirePlumber 0.5's own ducking (issue 23): with its role-based policy configured (opt-in; the
/// `media-role-nodes.conf` example), every stream with a media role plays into a loopback sink of
/// that role — `input.loopback.sink.role.multimedia`, `….navigation`, … — marked
/// `policy.role-based.target` with a `policy.role-based.priority` and the actions toward streams of
/// lower and of the same priority (`mix`, `duck`, `cork`). While a stream plays into a higher one
/// whose action is `duck`, WirePlumber lowers the lower loopback's own output to
/// `linking.role-based.duck-level` (0.3 linear: about −10 dB), leaving the client's stream as the
/// user set it (WirePlumber's `linking/rescan-media-role-links.lua`).
///
/// A stream WirePlumber ducks so is not ducked by the daemon a second time (the two would stack to
/// about −42 dB): this tells which, from the server's inventory alone — the loopback sinks'
/// properties, as pipewire-pulse shows them, and which streams play into which. Predicted from the
/// configuration rather than read off the loopback's volume afterwards, so the daemon's decision
/// for a new prompt never races WirePlumber's. Pure.
enum RoleBasedDucking {
    /// A role loopback sink's place in WirePlumber's policy.
    struct Target: Sendable, Hashable {
        var priority: Int
        /// What a stream into this target does to streams of lower priority (`duck`, `cork`, `mix`).
        var lowerPriorityAction: String
        /// … and to streams of the same priority.
        var samePriorityAction: String

        /// `sink` as a role-based target; nil for any other sink.
        init?(_ sink: AudioDevice) {
            let properties = sink.properties
            guard properties["policy.role-based.target"] == "true",
                  let priority = properties["policy.role-based.priority"].flatMap({ Int($0) }) else { return nil }
            self.priority = priority
            lowerPriorityAction = properties["policy.role-based.action.lower-priority"] ?? "mix"
            samePriorityAction = properties["policy.role-based.action.same-priority"] ?? "mix"
        }

        init(priority: Int, lowerPriorityAction: String = "mix", samePriorityAction: String = "mix") {
            self.priority = priority
            self.lowerPriorityAction = lowerPriorityAction
            self.samePriorityAction = samePriorityAction
        }

        /// Whether a stream into this target ducks one into `other`.
        func ducks(_ other: Target) -> Bool {
            if priority > other.priority { return lowerPriorityAction == "duck" }
            if priority == other.priority { return samePriorityAction == "duck" }
            return false
        }
    }

    /// The playback streams of `inventory` that WirePlumber's role-based policy ducks now: those
    /// into a role target that another stream, into a target whose action toward it is `duck`,
    /// plays beside. Empty where no sink is a role target (PulseAudio, WirePlumber 0.4, the
    /// policy not configured).
    static func ducked(in inventory: AudioInventory) -> Set<StreamID> {
        var targets: [UInt32: Target] = [:]
        for device in inventory.devices.values where device.id.kind == .sink {
            if let target = Target(device) { targets[device.id.index] = target }
        }
        guard !targets.isEmpty else { return [] }
        let placed = inventory.streams.values.compactMap { stream -> (StreamID, Target)? in
            guard stream.id.direction == .playback, let target = targets[stream.deviceIndex] else { return nil }
            return (stream.id, target)
        }
        var ducked: Set<StreamID> = []
        for (id, target) in placed where placed.contains(where: { $0.0 != id && $0.1.ducks(target) }) {
            ducked.insert(id)
        }
        return ducked
    }
}
