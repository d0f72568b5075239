import DBus
import SessionCore

/// Media services lost and reset: following the owner of `org.mprisd.AudioPolicy`.
extension PolicyClient {
    /// On the I/O thread: the daemon's owner is now `owner`.
    func ownerChanged(to owner: String?) {
        let (pending, generation) = state.withLock { state -> ([(UInt64, RemoteRecord)], UInt64) in
            guard !state.closed, state.daemon != owner else { return ([], state.generation) }
            let hadDaemon = state.daemon != nil
            state.daemon = owner
            state.generation &+= 1
            state.early = []
            state.keys = [:]
            if hadDaemon {
                for key in state.records.keys.sorted() where state.records[key]?.path != nil {
                    let wasActive = state.records[key]?.isActive ?? false
                    state.records[key]?.reactivate = wasActive
                    state.records[key]?.path = nil
                    deliver(.mediaServicesLost, to: key, in: &state)
                }
            }
            guard owner != nil else { return ([], state.generation) }
            let records = state.records.keys.sorted().compactMap { key in state.records[key].map { (key, $0) } }
            return (records, state.generation)
        }
        guard let owner else { return }
        for (key, record) in pending { reregister(key, record, with: owner, generation: generation) }
    }

    /// Registers record `key` with the new daemon, activates it again if it was active, then
    /// delivers `.mediaServicesReset`. All of it asynchronous, on the I/O thread. The activation
    /// is `alongsideOthers`: what played on while the daemon was away is the user's choice, and a
    /// session that comes back interrupts nothing.
    private func reregister(_ key: UInt64, _ record: RemoteRecord, with daemon: String, generation: UInt64) {
        let register = Message.methodCall(destination: daemon, path: AudioPolicyNames.objectPath, interface: AudioPolicyNames.interface,
                                          member: "Register",
                                          body: [PolicyWire.encodeConfiguration(record.configuration, name: record.name,
                                                                                manageStreams: record.manageStreams)])
        connection.call(register, timeout: timeout) { [weak self] result in
            guard let self, case .success(let reply) = result,
                  case .objectPath(let path)? = reply.body.first else { return }
            let current = self.state.withLock { state -> Bool in
                guard state.generation == generation, state.records[key] != nil else { return false }
                state.records[key]?.path = path
                self.claim(path, for: key, in: &state)
                return true
            }
            guard current else {
                // Released meanwhile, or the daemon changed again: this registration is nobody's.
                self.connection.call(.methodCall(destination: daemon, path: path,
                                                 interface: AudioPolicyNames.sessionInterface,
                                                 member: "Unregister", body: [])) { _ in }
                return
            }
            guard record.reactivate else { return self.finishReset(key, generation: generation) }
            let activate = Message.methodCall(destination: daemon, path: path,
                                              interface: AudioPolicyNames.sessionInterface, member: "Activate",
                                              body: [PolicyWire.dictionary([(PolicyWire.ActivationKey.alongsideOthers,
                                                                             .boolean(true))])])
            self.connection.call(activate, timeout: self.timeout) { [weak self] result in
                guard let self else { return }
                if case .success = result {
                    self.state.withLock { state in
                        if state.generation == generation { state.records[key]?.isActive = true }
                    }
                }
                self.finishReset(key, generation: generation)
            }
        }
    }

    private func finishReset(_ key: UInt64, generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.records[key]?.reactivate = false
            deliver(.mediaServicesReset, to: key, in: &state)
        }
    }
}
