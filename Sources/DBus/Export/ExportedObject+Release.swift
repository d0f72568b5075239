extension ExportedObject {
    /// Announces `names` of `interface` (as `propertiesChanged`: only values that differ from the
    /// last announced ones) and then gives up the bus name `name`, as one job on the I/O thread.
    ///
    /// Why one job: the signal is read, marshalled and queued for sending before `ReleaseName` is
    /// even built, so whatever other threads queue meanwhile, every client sees the state the
    /// object had when the name went — an MPRIS player's `Stopped` before it disappears. Two
    /// separate calls from two threads promise no such order.
    ///
    /// `completion` runs on the I/O thread with the bus's answer, or `Disconnected` (on the
    /// caller's thread when the connection is already closed).
    public func propertiesChanged(_ interface: String, _ names: [String], thenReleasing name: String,
                                  completion: @escaping @Sendable (Result<Connection.ReleaseNameReply, DBusError>) -> Void) {
        let path = self.path
        let connection = self.connection
        let queued = connection.onLoop { core in
            core.objects.announce(path, interface, names, on: core)
            connection.releaseName(name, completion: completion)
        }
        if !queued { completion(.failure(.disconnected)) }
    }
}
