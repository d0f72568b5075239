import AudioServer
import SessionCore

/// Which sessions the policy acts for, and what their engine events change.
extension StreamPolicy {
    /// Acts on the streams of `owner`'s process tree for `session` from now on: its ducking and
    /// (if `mutesOnInterruption`) its interruptions. `number` is the daemon's number of the
    /// session; `label` how the log and the status name it; `pid` the owner's process when the
    /// caller knows it (else it is asked of the bus). Returns at once (runs on any thread, the
    /// connection's I/O thread included).
    ///
    /// `ducksStreams` false: the session only claims its process tree's playback streams (an
    /// MPRIS player ducked through its `Volume`: its streams are no app's implicit session).
    /// `coversCapture` false: its capture streams are not its own (an MPRIS player says nothing
    /// about recording: a browser's microphone still begins a call). `isMPRISPlayer`: the stand-in
    /// of an MPRIS player (whose device-loss pause WirePlumber 0.5 may send itself). Managing a
    /// number again replaces what was said before.
    public func manage(_ session: AudioSession, number: UInt64, label: String, owner: String,
                       pid: Int32? = nil, ducksStreams: Bool = true, mutesOnInterruption: Bool = true,
                       coversCapture: Bool = true, isMPRISPlayer: Bool = false) {
        // Subscribed here, before returning, so no event decided from now on is missed; each is
        // handled on the policy's thread, in order.
        let events = session.onEvent { [weak self] event in
            guard let self else { return }
            self.thread.enqueue { [weak self] in self?.sessionEvent(event, of: number) }
        }
        let isDucked = session.isDucked
        let isInterrupted = session.isInterrupted
        thread.enqueue { [weak self] in
            guard let self else { return events.cancel() }
            let added = self.state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                let known = state.sessions[number]
                known?.events?.cancel()
                state.sessions[number] = Managed(number: number, label: label, owner: owner, pid: pid ?? known?.pid,
                                                 streams: .processTree(coversCapture: coversCapture),
                                                 ducksStreams: ducksStreams, mutesOnInterruption: mutesOnInterruption,
                                                 isDucked: isDucked, isInterrupted: isInterrupted, events: events,
                                                 engine: EngineSession(id: session.id, system: session.system),
                                                 isMPRISPlayer: isMPRISPlayer)
                return true
            }
            guard added else { return events.cancel() }
            let known = self.state.withLock { $0.sessions[number]?.pid }
            if known == nil { self.lookUpProcess(of: owner, number: number) } else { self.decide() }
        }
    }

    /// Stops acting for session `number` (it was removed): what was done to its streams is
    /// undone.
    public func release(_ number: UInt64) {
        thread.enqueue { [weak self] in
            guard let self else { return }
            let owner = self.state.withLock { state -> String? in
                guard let managed = state.sessions.removeValue(forKey: number) else { return nil }
                managed.events?.cancel()
                return state.sessions.values.contains { $0.owner == managed.owner } ? nil : managed.owner
            }
            if let owner { self.owners?.forget(owner) }
            self.decide()
        }
    }

    /// The owner's pid from the bus; its streams are placed once it is known.
    private func lookUpProcess(of owner: String, number: UInt64) {
        guard let owners else { return }
        owners.lookUp(owner) { [weak self] pid in
            guard let self else { return }
            self.thread.enqueue { [weak self] in
                guard let self else { return }
                guard let pid else { return self.log("streams: no process id for \(owner); its streams are not managed") }
                self.state.withLock { $0.sessions[number]?.pid = pid }
                self.decide()
            }
        }
    }

    /// An engine event of a managed session (on the policy's thread).
    func sessionEvent(_ event: SessionEvent, of number: UInt64) {
        let changed = state.withLock { state -> Bool in
            guard var managed = state.sessions[number] else { return false }
            switch event {
            case .ducking(.began): managed.isDucked = true
            case .ducking(.ended): managed.isDucked = false
            case .interruption(.began): managed.isInterrupted = true
            case .interruption(.ended): managed.isInterrupted = false
            case .delayedActivation: managed.isHeld = false  // granted, or refused: no longer waiting
            default: return false
            }
            state.sessions[number] = managed
            return true
        }
        guard changed else { return }
        if case .interruption(.ended) = event, implicitInterruptionEnded(number) { return decideAll() }
        decide()
    }

    /// The managed session a stream belongs to: a session of our API or an MPRIS player whose
    /// process tree it is in (`coveringSession`), else the app's implicit session that has it.
    /// Called with the lock held.
    func session(of stream: AudioStream, in state: inout State) -> Managed? {
        if let covering = coveringSession(of: stream, in: &state) { return covering }
        guard stream.id.direction == .playback else { return nil }
        return state.sessions.values.first { managed in
            if case .implicit(_, let ids) = managed.streams { return ids.contains(stream.id) }
            return false
        }
    }

    /// The session whose owner is the stream's process or its nearest ancestor: a session
    /// registered with our API, or (playback only) an MPRIS player. Called with the lock held.
    func coveringSession(of stream: AudioStream, in state: inout State) -> Managed? {
        guard !state.sessions.isEmpty, let pid = stream.processID, pid > 1 else { return nil }
        let candidates = state.sessions.values.filter { managed in
            guard case .processTree(let coversCapture) = managed.streams, managed.pid != nil else { return false }
            return stream.id.direction == .playback || coversCapture
        }
        guard !candidates.isEmpty else { return nil }
        // The nearest owner wins; between two sessions of one process, the newer.
        let owners = Set(candidates.compactMap(\.pid))
        guard let owner = PlayerStreamJoin.nearestOwner(in: trees.chain(of: stream), among: owners) else { return nil }
        return candidates.filter { $0.pid == owner }.max { $0.number < $1.number }
    }
}
