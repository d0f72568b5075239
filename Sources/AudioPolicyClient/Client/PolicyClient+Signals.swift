import DBus
import SessionCore

/// Session signals: accepted only from the current daemon's unique name, routed by path.
extension PolicyClient {
    /// On the I/O thread, for every signal of `org.mprisd.AudioSession1` under the session path
    /// namespace (they are addressed to this connection: nobody else receives them).
    func sessionSignal(_ signal: Message) {
        guard let path = signal.path, let event = PolicyWire.event(from: signal) else { return }
        state.withLock { state in
            guard !state.closed, let daemon = state.daemon, signal.sender == daemon else { return }
            if let key = state.keys[path] {
                deliver(event, to: key, in: &state)
            } else {
                state.early.append((path, event))
                if state.early.count > Self.earlyLimit { state.early.removeFirst() }
            }
        }
    }
}
