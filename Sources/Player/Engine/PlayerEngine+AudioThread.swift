import AudioDevices
import Posix
import RemoteControl
#if canImport(Glibc)
import Glibc
#endif

/// The audio thread: applies requests between chunks, decodes, applies the relative volume and
/// writes to the sink (which blocks, pacing the loop); sleeps on `wakeEvent` while paused.
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
                guard openCurrentTrack() else { return endOfQueue() }
                resumeOutput()
                publish(.playing)
                playChunk(volume: volume)
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

    /// Opens the queue's current track if none is open, skipping files that cannot be played.
    /// Returns false when nothing playable is left.
    private func openCurrentTrack() -> Bool {
        while audio.file == nil {
            guard let path = shared.withLock({ $0.queue.current }) else { return false }
            do {
                let file = try AudioFile(path: path)
                try audio.sink.open(sampleRate: file.info.sampleRate, channels: file.info.channels)
                audio.file = file
                // Same format: the sink keeps its counters and the previous track's tail plays
                // first (gapless); the new track starts where everything queued so far ends.
                audio.baseFrame = -audio.sink.writtenFrames
                audio.generation += 1
                audio.item = Self.item(for: file, generation: audio.generation)
                refreshNextAvailability()
                audio.shownSecond = -1
                endpoint?.update { info in
                    info.item = audio.item
                    info.setElapsed(.zero)
                }
                audio.published = nil
            } catch let error as AudioFileError {
                log.message("skipping \(error)")
                guard shared.withLock({ $0.queue.skipUnplayable() }) else { return false }
            } catch {
                log.message("cannot play \(path) on \(audio.sink.name): \(error)")
                guard shared.withLock({ $0.queue.skipUnplayable() }) else { return false }
            }
        }
        return true
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
    }

    private func playChunk(volume: Double) {
        guard let file = audio.file else { return }
        let sink = audio.sink
        let channels = file.info.channels
        let frames = max(256, file.info.sampleRate / 100)  // 10 ms: requests wait at most one chunk
        // The buffer is moved out while in use: no overlapping access to `audio`.
        var buffer = audio.buffer
        audio.buffer = []
        defer { audio.buffer = buffer }
        if buffer.count != frames * channels { buffer = [Float](repeating: 0, count: frames * channels) }
        do {
            let got = try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }
            guard got > 0 else { return endOfTrack() }
            try buffer.withUnsafeMutableBufferPointer { whole in
                let chunk = UnsafeMutableBufferPointer(rebasing: whole[0..<(got * channels)])
                Gain.apply(volume, to: chunk)
                try sink.write(UnsafeBufferPointer(chunk))
            }
            shared.withLock { $0.playedAnything = true }
            showProgress()
        } catch let error as AudioFileError {
            log.message("skipping the rest of \(error)")
            endOfTrack()
        } catch {
            log.message("output \(sink.name) failed: \(error)")
            shared.withLock { $0.transport = .stopped }
        }
    }

    /// The track was decoded to its end: repeat it or go on to the next one without waiting
    /// (gapless; the audio thread stays responsive to a pause), or play out the tail at the end of
    /// the queue.
    private func endOfTrack() {
        let (action, more) = shared.withLock { state in
            let action = state.queue.advanceAtEndOfTrack()
            if action == .stop { state.transport = .stopped }
            return (action, state.transport != .stopped)
        }
        if action == .repeatCurrent, more, rewindForRepeat() { return }
        audio.file = nil
        if !more { try? audio.sink.drain() }
    }

    /// Plays the open track again from its start, queued behind its own tail (gapless). It stays
    /// the same item, so for MPRIS a repeat is a jump back to 0 — one `Seeked(0)`, the same
    /// `mpris:trackid`, no `Metadata` change — which is what playerctl and desktop widgets expect;
    /// reopening it would make every repeat a new track. Returns false when the file cannot be
    /// rewound (not seekable): it is then opened again, as a new track.
    private func rewindForRepeat() -> Bool {
        guard let file = audio.file else { return false }
        do {
            // Frame 0 plays once everything written so far has played, as for a new track.
            audio.baseFrame = try file.seek(toFrame: 0) - audio.sink.writtenFrames
        } catch {
            return false
        }
        audio.shownSecond = -1
        endpoint?.update(discontinuity: true) { $0.setElapsed(.zero) }
        showProgress(significant: true)
        return true
    }

    // MARK: Requests

    private func apply(_ request: PositionRequest) {
        switch request {
        case .next:
            if shared.withLock({ $0.queue.next() }) { closeTrack() }
        case .previous:
            let elapsed = audio.elapsedSeconds
            switch shared.withLock({ $0.queue.previous(elapsedSeconds: elapsed) }) {
            case .restartCurrent: seek(to: .zero)
            case .playPrevious: closeTrack()
            }
        case .seek(let offset):
            let target = audio.elapsed + offset
            if let duration = audio.item?.duration, target >= duration {
                // MPRIS: seeking past the end acts as Next (or ends the queue).
                if shared.withLock({ $0.queue.next() }) { closeTrack() } else { endOfTrack() }
            } else {
                seek(to: max(.zero, target))
            }
        case .setPosition(let position):
            seek(to: position)
        }
    }

    private func seek(to position: Duration) {
        guard let file = audio.file else { return }
        let frame = MediaTime.frame(at: position, sampleRate: file.info.sampleRate)
        do {
            let wasPaused = audio.sink.isPaused
            try audio.sink.drop()
            audio.baseFrame = try file.seek(toFrame: frame)
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

    private func pauseOutput() {
        guard let file = audio.file, !audio.sink.isPaused else { return }
        do {
            let lost = try audio.sink.pause()
            if lost > 0 { try file.seek(toFrame: MediaTime.frame(audio.baseFrame, advancedBy: audio.sink.writtenFrames)) }
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
        publish(.stopped)
    }

    /// Publishes a state that really took effect: MPRIS (with the device-clock position) and the
    /// status line.
    private func publish(_ state: PlaybackState) {
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

    private func showProgress(significant: Bool = false) {
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
        let frame = audio.currentFrame
        let wasPaused = audio.sink.isPaused
        try? audio.sink.drop()
        audio.sink.close()
        audio.sink = replacement
        audio.device = device
        log.message("output: \(replacement.name)")
        guard let file = audio.file else { return }
        do {
            try replacement.open(sampleRate: file.info.sampleRate, channels: file.info.channels)
            audio.baseFrame = try file.seek(toFrame: frame)
            if wasPaused { try replacement.pause() }
        } catch {
            log.message("output \(replacement.name) failed: \(error)")
            shared.withLock { $0.transport = .stopped }
        }
    }
}
