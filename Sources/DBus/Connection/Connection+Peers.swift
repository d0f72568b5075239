extension Connection {
    /// The bus's id (`org.freedesktop.DBus.GetId`): the same for every client of one bus, another
    /// for another bus. nil when the bus does not answer within `timeout`. Blocks the calling
    /// thread (never the connection's own).
    public func busID(timeout: Duration = .seconds(5)) -> String? {
        let asked = try? waiting { (done: @escaping Completion<[DBusValue]>) in
            callBus("GetId", timeout: timeout, completion: done)
        }
        guard case .string(let id)? = asked?.first else { return nil }
        return id
    }

    /// Who `name` is, for a message saying it did not answer: its unique name and process
    /// (`GetNameOwner`, `GetConnectionUnixProcessID`: the bus answers for a peer that is stopped
    /// or busy) — `org.mprisd.AudioPolicy (:1.5, pid 1234)` — or the name alone when the bus
    /// cannot say. Blocks the calling thread (never the connection's own) for at most `timeout`.
    public func peerDescription(_ name: String, timeout: Duration = .milliseconds(250)) -> String {
        let owner: String?
        if name.hasPrefix(":") {
            owner = name
        } else {
            let asked = try? waiting { (done: @escaping Completion<[DBusValue]>) in
                callBus("GetNameOwner", [.string(name)], timeout: timeout, completion: done)
            }
            if case .string(let unique)? = asked?.first { owner = unique } else { owner = nil }
        }
        guard let owner else { return name }
        let pid = try? waiting { (done: @escaping Completion<[DBusValue]>) in
            callBus("GetConnectionUnixProcessID", [.string(owner)], timeout: timeout, completion: done)
        }
        let process: String = if case .uint32(let number)? = pid?.first { ", pid \(number)" } else { "" }
        return owner == name ? "\(name)\(process.isEmpty ? "" : " (\(process.dropFirst(2)))")" : "\(name) (\(owner)\(process))"
    }
}
