import RemoteControl

/// Announcing what the listener hears: with seconds of audio queued, the decoder reaches the next
/// track (or the repeat of this one) long before the listener does, so MPRIS metadata, `Seeked(0)`
/// and the status line follow the device clock, not the decoder (`AudioThreadState.upcoming`).
extension PlayerEngine {
    /// Announces `audio.upcoming` once the listener hears its first frame (the loop calls this
    /// after every step, and sleeps no longer than until that frame).
    func announceIfHeard() {
        while let next = audio.upcoming.first, audio.sink.playedFrames >= next.startFrame {
            audio.upcoming.removeFirst()
            // Each upcoming one starts at its track's frame 0 (while more follow, `currentFrame`
            // counts from here; after the last, from `baseFrame`).
            audio.heardBaseFrame = -next.startFrame
            announce(next)
        }
    }

    /// After a drop the sink's counters start again and nothing older than the decoder's track
    /// will play: announces everything upcoming, in order.
    func announceAllNow() {
        let pending = audio.upcoming
        audio.upcoming = []
        for upcoming in pending { announce(upcoming) }
    }

    private func announce(_ upcoming: Upcoming) {
        audio.shownSecond = -1
        switch upcoming.kind {
        case .track(let item):
            audio.item = item
            refreshNextAvailability()
            endpoint?.update { info in
                info.item = item
                info.setElapsed(.zero)
            }
            // Shown now: several short tracks may be heard within one sleep of the audio thread.
            // Before the first `publish`, that shows the track.
            if audio.published == nil { return }
            showProgress(significant: true)
        case .repeatOfCurrent:
            endpoint?.update(discontinuity: true) { $0.setElapsed(.zero) }
            showProgress(significant: true)
        }
    }
}
