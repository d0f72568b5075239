import AudioDevices
import Posix
import RemoteControl
#if canImport(Glibc)
import Glibc
#endif

/// The audio thread: applies requests, fills the sink's deep buffer (PlayerEngine+Feeding) and
/// sleeps until the sink wants more or `wakeEvent` brings a command, which then acts at once on
/// the device (a pause stops it, a seek drops what was queued); sleeps on `wakeEvent` alone while
/// paused.
extension PlayerEngine {
    func runAudioThread() {
        audioThread.claim()
        while true {
            let (transport, requests, volume, device) = shared.withLock { state in
                defer { state.requests.removeAll() }
                return (state.transport, state.requests,
                        state.ducked ? state.volume * Self.duckedGain : state.volume, state.outputDevice)
            }
            if device != audio.device, transport != .stopped { switchOutput(to: device) }
            for request in requests { apply(request) }
            switch transport {
            case .stopped:
                stopOutput()
                return finish(status: 0)
            case .paused:
                pauseOutput()
                publish(.paused)
                guard waitForCommand() else {
                    stopOutput()
                    return finish(status: 1)
                }
            case .playing:
                if audio.queueEnded {
                    resumeOutput()
                    publish(.playing)
                    playOutTail()
                    continue
                }
                switch openCurrentTrack() {
                case .open: break
                case .nothingLeft: return endOfQueue()
                case .notYet: continue  // the previous format's tail still plays
                }
                resumeOutput()
                publish(.playing)
                // Not while an upcoming track waits behind the previous one's tail: that tail
                // cannot be decoded again (its file is closed), so it keeps its gain.
                if audio.queuedGain != volume, audio.upcoming.isEmpty { replaceQueued(gain: volume) }
                feed(volume: volume)
            }
        }
    }

    /// The gain while ducked (the level desktop policies such as WirePlumber use).
    static let duckedGain = 0.3

    /// Blocks until a command wakes the thread (`change` signals `wakeEvent`): zero wake-ups while
    /// paused. False (reported) when the wait itself failed: nothing could wake the thread any more.
    private func waitForCommand() -> Bool {
        do throws(PosixError) {
            try wakeEvent.wait()
            return true
        } catch {
            log.message("cannot wait while paused: \(error)")
            return false
        }
    }

    // MARK: Tracks

    enum TrackOpening { case open, nothingLeft, notYet }

    /// Opens the queue's current track if none is open, skipping files that cannot be played.
    /// `.nothingLeft` when nothing playable is left; `.notYet` while the previous track's tail, in
    /// another format, still plays (the device is reconfigured once it has played out: waited for
    /// here, awake for commands, not inside `AudioSink.open`, which would block for a buffer).
    private func openCurrentTrack() -> TrackOpening {
        while audio.file == nil {
            guard let path = shared.withLock({ $0.queue.current }) else { return .nothingLeft }
            do {
                let file = try AudioFile(path: path)
                let wanted = StreamFormat(sampleRate: file.info.sampleRate, channels: file.info.channels)
                if let current = audio.sink.format, current != wanted, !audio.sink.isPaused, audio.sink.writtenFrames > 0 {
                    switch try audio.sink.waitUntilPlayed(orReadable: wakeEvent.fileDescriptor,
                                                          timeoutMilliseconds: untilUpcoming) {
                    case .device: break
                    case .signalled:
                        wakeEvent.drain()
                        return .notYet
                    case .timedOut:
                        announceIfHeard()
                        return .notYet
                    }
                }
                try audio.sink.open(sampleRate: file.info.sampleRate, channels: file.info.channels)
                // Another format: the sink played everything out and starts counting again.
                if audio.sink.writtenFrames == 0 { announceAllNow() }
                audio.file = file
                // Same format: the sink keeps its counters and the previous track's tail plays
                // first (gapless); the new track starts where everything queued so far ends, and
                // is announced when it is heard.
                audio.generation += 1
                audio.announceLater(.track(Self.item(for: file, generation: audio.generation)))
                audio.baseFrame = -audio.sink.writtenFrames
                announceIfHeard()
            } catch let error as AudioFileError {
                log.message("skipping \(error)")
                guard shared.withLock({ $0.queue.skipUnplayable() }) else { return .nothingLeft }
            } catch {
                log.message("cannot play \(path) on \(audio.sink.name): \(error)")
                guard shared.withLock({ $0.queue.skipUnplayable() }) else { return .nothingLeft }
            }
        }
        return .open
    }

    static func item(for file: AudioFile, generation: UInt64) -> NowPlayingItem {
        let tags = file.tags
        let duration = file.info.length  // nil when unknown: no `mpris:length`, no total shown
        return NowPlayingItem(id: "\(generation):\(file.path)", title: file.displayTitle,
                              artists: tags.artist.map { [$0] } ?? [], album: tags.album,
                              albumArtists: tags.albumArtist.map { [$0] } ?? [], trackNumber: tags.trackNumber,
                              duration: duration, url: FileURL.string(forPath: file.location))
    }

    private func closeTrack() {
        try? audio.sink.drop()
        audio.file = nil
        audio.queueEnded = false
        audio.mayWrite = true
        audio.upcoming = []
    }

    /// The track was decoded to its end: repeat it or go on to the next one without waiting
    /// (gapless), or mark the end of the queue, whose tail the loop plays out.
    func endOfTrack() {
        let action = shared.withLock { $0.queue.advanceAtEndOfTrack() }
        if action == .repeatCurrent, rewindForRepeat() { return }
        audio.file = nil
        // The end of the queue: the tail still plays (`playOutTail`), and a pause still pauses it.
        if action == .stop { audio.queueEnded = true }
    }

    /// Plays the open track again from its start, queued behind its own tail (gapless). It stays
    /// the same item, so for MPRIS a repeat is a jump back to 0 — one `Seeked(0)`, the same
    /// `mpris:trackid`, no `Metadata` change — which is what playerctl and desktop widgets expect;
    /// reopening it would make every repeat a new track. Returns false when the file cannot be
    /// rewound (not seekable): it is then opened again, as a new track.
    private func rewindForRepeat() -> Bool {
        guard let file = audio.file else { return false }
        let start: Int
        do {
            start = try file.seek(toFrame: 0)
        } catch {
            return false
        }
        // Frame 0 plays once everything written so far has played, as for a new track.
        audio.announceLater(.repeatOfCurrent)
        audio.baseFrame = start - audio.sink.writtenFrames
        announceIfHeard()
        return true
    }

    // MARK: Requests

    private func apply(_ request: PositionRequest) {
        switch request {
        case .next:
            // The decoder already started the next track, still queued behind the one heard:
            // Next is that track, from its start, now.
            if case .track? = audio.upcoming.last?.kind { return playUpcomingNow() }
            if shared.withLock({ $0.queue.next() }) { closeTrack() }
        case .previous:
            let elapsed = audio.elapsedSeconds
            returnToHeardTrack()
            switch shared.withLock({ $0.queue.previous(elapsedSeconds: elapsed) }) {
            case .restartCurrent: seek(to: .zero)
            case .playPrevious: closeTrack()
            }
        case .seek(let offset):
            let target = audio.elapsed + offset
            if let duration = audio.item?.duration, target >= duration {
                // MPRIS: seeking past the end acts as Next (or ends the queue).
                if case .track? = audio.upcoming.last?.kind { return playUpcomingNow() }
                if shared.withLock({ $0.queue.next() }) { closeTrack() } else { endOfTrack() }
            } else {
                returnToHeardTrack()
                seek(to: max(.zero, target))
            }
        case .setPosition(let position):
            returnToHeardTrack()
            seek(to: position)
        }
    }

    /// Before a request about the position in the track heard (Previous, a seek) while the decoder
    /// is already on the next track: the queue goes back to the track heard and it is opened again,
    /// so the request applies to what the listener hears.
    private func returnToHeardTrack() {
        guard case .track? = audio.upcoming.last?.kind else { return }
        shared.withLock { _ = $0.queue.previous(elapsedSeconds: 0) }
        closeTrack()
        _ = openCurrentTrack()  // same format as the decoder's track: opens at once
    }

    /// Next while the decoder's track waits behind the tail of the one heard: drops the tail and
    /// plays that track from its start (announced now, no `Seeked`).
    private func playUpcomingNow() {
        guard let file = audio.file else { return }
        do {
            try audio.sink.drop()  // a paused sink stays paused
            audio.mayWrite = true
            audio.baseFrame = try file.seek(toFrame: 0)
        } catch {
            log.message("cannot skip to the next track: \(error)")
        }
        announceAllNow()
    }

    private func seek(to position: Duration) {
        guard let file = audio.file else { return }
        let frame = MediaTime.frame(at: position, sampleRate: file.info.sampleRate)
        do {
            let wasPaused = audio.sink.isPaused
            try audio.sink.drop()
            audio.mayWrite = true
            audio.baseFrame = try file.seek(toFrame: frame)
            announceAllNow()  // dropped: an upcoming track is the one heard now
            if !wasPaused, audio.sink.isPaused { try audio.sink.resume() }
        } catch {
            log.message("cannot seek: \(error)")
            return
        }
        audio.shownSecond = -1
        endpoint?.update(discontinuity: true) { $0.setElapsed(audio.elapsed) }
        showProgress(significant: true)
    }

    // MARK: Output state

    /// Stops the device where the listener is. A device that cannot pause in place drops what it
    /// held (`lost`, already taken off `writtenFrames`): the decoder goes back to the first frame
    /// not heard, so resuming repeats nothing and skips nothing. (Lost frames of the previous
    /// track's tail cannot be played again: its file is closed.)
    private func pauseOutput() {
        guard audio.sink.format != nil, !audio.sink.isPaused else { return }
        do {
            let lost = try audio.sink.pause()
            audio.mayWrite = true
            guard lost > 0, let file = audio.file else { return }
            let heard = max(0, MediaTime.frame(audio.baseFrame, advancedBy: audio.sink.writtenFrames))
            audio.baseFrame = MediaTime.frame(try file.seek(toFrame: heard), advancedBy: -audio.sink.writtenFrames)
            // What was dropped of upcoming tracks never plays; the decoder's track resumes where
            // the sink now ends, as soon as what is left was heard.
            let end = audio.sink.writtenFrames
            if let decoders = audio.upcoming.last, decoders.startFrame >= end {
                audio.upcoming.removeAll { $0.startFrame >= end }
                audio.upcoming.append(Upcoming(kind: decoders.kind, startFrame: end))
            }
            announceIfHeard()
        } catch {
            log.message("cannot pause \(audio.sink.name): \(error)")
        }
    }

    private func resumeOutput() {
        guard audio.sink.isPaused else { return }
        do { try audio.sink.resume() } catch { log.message("cannot resume \(audio.sink.name): \(error)") }
    }

    private func stopOutput() {
        try? audio.sink.drop()
        audio.sink.close()
        audio.file = nil
        audio.queueEnded = false
        audio.queuedGain = nil
        audio.upcoming = []
        publish(.stopped)
    }

    /// Publishes a state that really took effect: MPRIS (with the device-clock position) and the
    /// status line.
    func publish(_ state: PlaybackState) {
        guard audio.published != state else { return }
        audio.published = state
        let elapsed = audio.elapsed
        endpoint?.update { info in
            info.playbackState = state
            info.setElapsed(elapsed)
            if state == .stopped { info.item = nil }
        }
        showProgress(significant: true)
    }

    func showProgress(significant: Bool = false) {
        let second = audio.elapsedWholeSeconds
        guard significant || second != audio.shownSecond else { return }
        audio.shownSecond = second
        if !significant, audio.published == .playing {
            // Once a second, re-anchor MPRIS Position on the device clock (never signalled), so
            // the extrapolation between anchors cannot drift from what is heard.
            let elapsed = audio.elapsed
            endpoint?.update { $0.setElapsed(elapsed) }
        }
        let state = audio.published.map { $0 == .playing ? "Playing" : $0 == .paused ? "Paused" : "Stopped" } ?? "Stopped"
        guard let item = audio.item, audio.published != .stopped else {
            log.status("■ stopped", significant: significant)
            return
        }
        let duration = item.duration.map(MediaTime.seconds)
        log.status(StatusLine.format(state: state, title: item.title ?? "", artist: item.artists.first,
                                     elapsed: audio.elapsedSeconds, duration: duration),
                   significant: significant)
    }

    // MARK: The end

    private func endOfQueue() {
        stopOutput()
        finish(status: 0)
    }

    private func finish(status: Int32) {
        driveAndWait { $0.stop() }  // deactivate the session with notify-others (G-INT-NOTIFY)
        steps.stop()
        let played = shared.withLock { state -> Bool in
            state.finished = state.playedAnything ? status : 1
            return state.playedAnything
        }
        if !played { log.message("nothing could be played") }
        let underruns = audio.earlierUnderruns + audio.sink.underruns
        if underruns > 0 { log.message("the output ran dry \(underruns) time\(underruns == 1 ? "" : "s") (underruns)") }
        log.finish()
        finishedEvent.signal()
    }
}

// MARK: Moving to another output

extension PlayerEngine {
    /// Moves playback to `device` (the session's route changed to a configured output): the new
    /// sink starts at the frame the listener heard last on the old one, so nothing is skipped or
    /// repeated beyond what the old device still held. A device that cannot be opened is reported
    /// and playback stays where it was.
    func switchOutput(to device: String?) {
        let replacement: any AudioSink
        do {
            replacement = try OutputSelection.choose(device: device).sink
        } catch {
            log.message("cannot switch to output \(device ?? OutputSelection.defaultDevice): \(error); staying on \(audio.sink.name)")
            audio.device = device  // do not retry on every chunk; a later route change tries again
            return
        }
        // An upcoming track starts on the new output; the old one's tail stays behind.
        let frame = audio.upcoming.isEmpty ? audio.currentFrame : 0
        let wasPaused = audio.sink.isPaused
        try? audio.sink.drop()
        audio.sink.close()
        audio.earlierUnderruns += audio.sink.underruns
        audio.sink = replacement
        audio.device = device
        audio.mayWrite = true
        audio.queuedGain = nil
        log.message("output: \(replacement.name)")
        guard let file = audio.file else { return }
        do {
            try replacement.open(sampleRate: file.info.sampleRate, channels: file.info.channels)
            audio.baseFrame = try file.seek(toFrame: frame)
            announceIfHeard()
            if wasPaused { try replacement.pause() }
        } catch {
            log.message("output \(replacement.name) failed: \(error)")
            shared.withLock { $0.transport = .stopped }
        }
    }
}
