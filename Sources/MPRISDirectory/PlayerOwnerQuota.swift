/// How many MPRIS names of one connection the player directory follows.
///
/// Each followed name costs a match rule on the bus (counted against the daemon's limit), a
/// `GetAll` and a session in the engine. A sandboxed app may own any number of names below its
/// own MPRIS name, so without a bound one connection could make the daemon do unbounded work and
/// crowd out real players. Real players own one name, a few at most.
///
/// Loop-free bookkeeping kept under the directory's lock: per owner (unique name), the names
/// admitted so far; an admitted name that is no longer listed for that owner frees its place,
/// checked lazily when the owner asks for another, so the removal paths need not know about this.
struct PlayerOwnerQuota {
    /// Names followed per owning connection at most.
    static let playersPerOwner = 16

    enum Admission: Equatable {
        case admitted
        /// Over the limit; `first` is true for the owner's first refused name (one log line per
        /// connection, not one per name).
        case refused(first: Bool)
    }

    private var admitted: [String: Set<String>] = [:]
    private var overLimit: Set<String> = []

    /// The names admitted for `owner` (at most `playersPerOwner`).
    func names(of owner: String) -> Set<String> { admitted[owner] ?? [] }

    /// Whether `name`, now owned by `owner`, may be followed. `gone`: names admitted earlier that
    /// are no longer followed for `owner` (their places are free again).
    mutating func admit(_ name: String, of owner: String, gone: Set<String>) -> Admission {
        var names = self.names(of: owner).subtracting(gone)
        names.remove(name)
        guard names.count < Self.playersPerOwner else {
            admitted[owner] = names
            return .refused(first: overLimit.insert(owner).inserted)
        }
        names.insert(name)
        admitted[owner] = names
        return .admitted
    }

    /// `owner` left the bus: its names went with it.
    mutating func ownerLeft(_ owner: String) {
        admitted[owner] = nil
        overLimit.remove(owner)
    }
}
