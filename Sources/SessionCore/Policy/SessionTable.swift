/// The engine's session storage: a slot array indexed by the id, with a generation per slot so an
/// id is never reused and a removed session's id never finds the slot's next occupant. Lookups are
/// an array index (no hashing); freed slots are reused (memory is O(registered), not O(history)).
struct SessionTable: Sendable {
    private var slots: [SessionRecord?] = []
    private var generations: [UInt32] = []
    private var freeSlots: [Int] = []

    /// The number of sessions.
    private(set) var count = 0

    /// Stores `record` in a free slot and returns its new, never-used id.
    mutating func insert(_ record: SessionRecord) -> SessionID {
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
        } else {
            slot = slots.count
            slots.append(nil)
            generations.append(0)
        }
        slots[slot] = record
        count += 1
        return SessionID(rawValue: UInt64(generations[slot]) << 32 | UInt64(slot + 1))
    }

    /// Removes the session `id`; its slot's generation moves on so `id` never matches again.
    mutating func remove(_ id: SessionID) {
        guard let slot = slot(of: id), slots[slot] != nil else { return }
        slots[slot] = nil
        generations[slot] &+= 1
        freeSlots.append(slot)
        count -= 1
    }

    private func slot(of id: SessionID) -> Int? {
        let slot = Int(id.rawValue & 0xFFFF_FFFF) - 1
        guard slot >= 0, slot < slots.count, UInt64(generations[slot]) == id.rawValue >> 32 else { return nil }
        return slot
    }

    /// The record of `id`, or nil. Mutations through optional chaining happen in place.
    subscript(id: SessionID) -> SessionRecord? {
        _read {
            if let slot = slot(of: id) { yield slots[slot] } else { yield nil }
        }
        _modify {
            if let slot = slot(of: id), slots[slot] != nil {
                yield &slots[slot]
            } else {
                var absent: SessionRecord?
                yield &absent
            }
        }
    }

    /// Every id, ascending.
    var ids: [SessionID] {
        var ids: [SessionID] = []
        ids.reserveCapacity(count)
        for slot in slots.indices where slots[slot] != nil {
            ids.append(SessionID(rawValue: UInt64(generations[slot]) << 32 | UInt64(slot + 1)))
        }
        return ids.sorted()
    }
}
