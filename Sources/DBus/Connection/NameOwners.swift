/// The current owner of each well-known name some match rule names as its sender, kept both ways
/// so that `SignalRouter` finds, in constant time, the owner of a name and the followed names a
/// signal's unique sender owns.
struct NameOwners {
    private var ownerOf: [String: String] = [:]
    private var namesOf: [String: Set<String>] = [:]

    /// Whether `name` currently has a known owner.
    func isFollowing(_ name: String) -> Bool { ownerOf[name] != nil }

    func owner(of name: String) -> String? { ownerOf[name] }

    /// The followed names `owner` holds (none for nil).
    func names(ownedBy owner: String?) -> Set<String> {
        owner.flatMap { namesOf[$0] } ?? []
    }

    /// `name` is owned by `owner` now (nil: by nobody).
    mutating func set(_ owner: String?, of name: String) {
        if let previous = ownerOf[name] {
            namesOf[previous]?.remove(name)
            if namesOf[previous]?.isEmpty == true { namesOf[previous] = nil }
        }
        ownerOf[name] = owner
        if let owner { namesOf[owner, default: []].insert(name) }
    }
}
