import AudioDevices
import Posix

/// Keeping the sink's deep buffer full with few wake-ups: fill all the room there is in one
/// write, then sleep in the sink's `poll()` until it has drained to its margin or a command comes.
///
/// One write per refill matters beyond our own thread: alsa-lib's `pulse` plugin wakes its
/// PulseAudio thread for every `snd_pcm_writei`, so 10 ms chunks cost 100 wake-ups a second there
/// even with a deep buffer. Decoding goes in slices, and between slices the thread looks whether a
/// command arrived (`WakeEvent.isSignalled`): a pause waits for at most one slice, not a refill.
extension PlayerEngine {
    /// The decoding slice: a command waits at most this long behind a refill in progress.
    static let sliceSeconds = 0.02
    /// The most audio one write carries. A refill is a period of the device (4 s at most: a third
    /// of a plugin's 12 s); only a first fill, or one after a seek or a drop, is more, and it goes
    /// in several writes rather than a decode buffer of the whole device (12 s of stereo floats
    /// would be 4 MB, kept for reuse).
    static let writeSeconds = 4

    /// One step of playing: fill the sink if it asked for data, else sleep until it does or a
    /// command comes (which the loop then applies).
    func feed(volume: Double) {
        let sink = audio.sink
        do {
            if audio.mayWrite {
                let rate = sink.format?.sampleRate ?? 0
                let room = min(try sink.writableFrames(), max(rate, 1) * Self.writeSeconds)
                if room > 0 {
                    audio.mayWrite = !fill(room: room, volume: volume)
                    return
                }
                audio.mayWrite = false
            }
            switch try sink.waitForRoom(orReadable: wakeEvent.fileDescriptor, timeoutMilliseconds: untilUpcoming) {
            case .device: audio.mayWrite = true
            case .signalled: wakeEvent.drain()
            case .timedOut: break
            }
            announceIfHeard()
        } catch {
            log.message("output \(sink.name) failed: \(error)")
            shared.withLock { $0.transport = .stopped }
        }
    }

    /// Decodes up to `room` frames of the open track, applies `volume` and writes them in one
    /// `write` (which does not block: they fit). Returns true when the room was filled; false when
    /// the track ended, failed or a command cut the refill short (the loop goes on filling after
    /// it looked at the command).
    private func fill(room: Int, volume: Double) -> Bool {
        guard let file = audio.file else { return false }
        let sink = audio.sink
        let channels = file.info.channels
        let slice = max(256, Int(Double(file.info.sampleRate) * Self.sliceSeconds))
        // The buffer is moved out while in use: no overlapping access to `audio`.
        var buffer = audio.buffer
        audio.buffer = []
        defer { audio.buffer = buffer }
        if buffer.count < room * channels { buffer = [Float](repeating: 0, count: room * channels) }
        var decoded = 0
        var trackEnded = false
        var interrupted = false
        var failure: AudioFileError?
        buffer.withUnsafeMutableBufferPointer { whole in
            while decoded < room {
                let end = min(room, decoded + slice)
                let target = UnsafeMutableBufferPointer(rebasing: whole[(decoded * channels)..<(end * channels)])
                do throws(AudioFileError) {
                    let got = try file.read(into: target)
                    guard got > 0 else {
                        trackEnded = true
                        return
                    }
                    decoded += got
                } catch {
                    failure = error
                    return
                }
                if wakeEvent.isSignalled {
                    interrupted = true
                    return
                }
            }
        }
        if decoded > 0 {
            do {
                try buffer.withUnsafeMutableBufferPointer { whole in
                    let chunk = UnsafeMutableBufferPointer(rebasing: whole[0..<(decoded * channels)])
                    Gain.apply(volume, to: chunk)
                    try sink.write(UnsafeBufferPointer(chunk))
                }
            } catch {
                log.message("output \(sink.name) failed: \(error)")
                shared.withLock { $0.transport = .stopped }
                return false
            }
            audio.queuedGain = volume
            shared.withLock { $0.playedAnything = true }
            showProgress()
        }
        if let failure {
            log.message("skipping the rest of \(failure)")
            endOfTrack()
            return false
        }
        if trackEnded {
            endOfTrack()
            return false
        }
        return !interrupted
    }

    /// How long to sleep at most: an upcoming track is announced when heard (-1: no limit).
    var untilUpcoming: Int32 {
        let rate = audio.sink.format?.sampleRate ?? 0
        return audio.framesUntilUpcoming.map { rate > 0 ? Int32(clamping: $0 * 1000 / rate + 1) : 0 } ?? -1
    }

    /// The relative volume changed (the user, a duck): what is queued was written with the old
    /// one and would play for up to a buffer. Drops it and decodes again from the frame the
    /// listener hears now, so the change is heard at once (a device that cannot rewind loses a
    /// few milliseconds to the restart, which a volume step covers).
    func replaceQueued(gain: Double) {
        defer { audio.queuedGain = gain }
        guard audio.queuedGain != nil, let file = audio.file, audio.sink.writtenFrames > 0 else { return }
        let frame = audio.currentFrame
        do {
            try audio.sink.drop()
            audio.baseFrame = try file.seek(toFrame: frame)
        } catch {
            log.message("cannot apply the volume at once on \(audio.sink.name): \(error)")
        }
        audio.mayWrite = true
    }

    /// The queue ended: plays out what the sink still holds, awake for commands meanwhile (a pause
    /// pauses the tail, a stop cuts it), then stops.
    func playOutTail() {
        do {
            switch try audio.sink.waitUntilPlayed(orReadable: wakeEvent.fileDescriptor, timeoutMilliseconds: untilUpcoming) {
            case .device:
                announceAllNow()
                publish(.playing)  // a track announced just now is shown before the stop
                shared.withLock { $0.transport = .stopped }
            case .signalled: wakeEvent.drain()
            case .timedOut: announceIfHeard()
            }
        } catch {
            log.message("output \(audio.sink.name) failed: \(error)")
            shared.withLock { $0.transport = .stopped }
        }
    }
}
