/// Sleep (issue 16): before the system suspends, every playing session is interrupted, and none is
/// resumed after the wake-up — the G-HEADPHONES-OUT reasoning: the output the sound would come back
/// on may not be the one it left (headphones unplugged, a Bluetooth headset gone, the laptop opened
/// in a meeting). The user's next Play resumes as usual (an activation ends its own interruption).
extension PolicyEngine {
    /// The system is about to sleep (logind's `PrepareForSleep(true)`): every active session with
    /// output, except `spared`, is interrupted (cause `.sleep`, reason `sleep`) and held so until
    /// `wokeFromSleep`. Sessions that only record are left alone. The activation queued behind a
    /// call (if its session is not spared) is refused: granted after the wake-up, it would start
    /// sound nobody asked for then.
    ///
    /// `spared` is for sessions nothing would resume once their interruption ends — the daemon's
    /// implicit sessions of apps without our API or MPRIS, whose streams it would only mute, a mute
    /// that would outlive its reason. O(active sessions).
    public mutating func prepareForSleep(sparing spared: Set<SessionID> = []) -> [PolicyEffect] {
        let refused = pending.filter { !spared.contains($0) }
        for id in refused {
            records[id]?.isPending = false
            emit(id, .delayedActivation(.refused(.insufficientPriority)))
        }
        pending.removeAll { !spared.contains($0) }
        for id in activeOrder.reversed() where !spared.contains(id) {
            guard let record = records[id], record.traits.hasOutput else { continue }
            interrupt(id, by: .sleep, reason: .sleep)
        }
        finish()
        return takeEffects()
    }

    /// The system woke up (logind's `PrepareForSleep(false)`, also sent when the sleep failed):
    /// every session still held by `.sleep` receives *ended* without shouldResume, and so does
    /// whatever it held interrupted (a call interrupted by the sleep does not hand the music it
    /// paused back either). Nothing is rehung on another interrupter: after a sleep nothing plays
    /// by itself. O(sessions held by the sleep and their victims).
    public mutating func wokeFromSleep() -> [PolicyEffect] {
        let held = sleepVictims
        for id in held {
            detach(id)
            emit(id, .interruption(.ended(options: [])))
            releaseVictims(of: id, shouldResume: false)
        }
        finish()
        return takeEffects()
    }
}
