import DBus

extension Connection {
    /// How many match rules the bus holds for the connection `unique` (`org.freedesktop.DBus.Debug.
    /// Stats.GetConnectionStats`, which Debian's dbus-daemon answers on a private bus): a leaked rule
    /// shows here even when nothing else can see it.
    public func matchRuleCount(of unique: String) async throws -> Int {
        let reply = try await call(destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus"),
                                   interface: "org.freedesktop.DBus.Debug.Stats", member: "GetConnectionStats",
                                   [.string(unique)], timeout: .seconds(5))
        guard case .dictionary(_, _, let entries)? = reply.first,
              let entry = entries.first(where: { $0.key == .string("MatchRules") }),
              case .variant(.uint32(let count)) = entry.value else {
            throw TestSupportError("GetConnectionStats answered \(reply)")
        }
        return Int(count)
    }
}
