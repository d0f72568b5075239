import CALSA
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// Sleeping on the device: `poll()` on the PCM's descriptors next to the player's own, so a
/// command wakes the audio thread at once however much audio is queued.
extension ALSAOutput {
    public func writableFrames() throws(AudioOutputError) -> Int {
        guard let pcm, format != nil else { throw .notOpen(device: device) }
        guard !isPaused else { return 0 }
        let room = ALSAPCM.avail(pcm)
        if room >= 0 { return room }
        try recover(pcm, from: Int32(truncatingIfNeeded: room), "snd_pcm_avail")
        let again = ALSAPCM.avail(pcm)
        if again < 0 { try check(Int32(truncatingIfNeeded: again), "snd_pcm_avail") }
        return max(again, 0)
    }

    public func waitForRoom(orReadable descriptor: Int32, timeoutMilliseconds: Int32) throws(AudioOutputError) -> SinkWake {
        guard let pcm, let grant else { throw .notOpen(device: device) }
        guard !isPaused else { throw .paused(device: device) }
        let limit = timeoutMilliseconds < 0 ? nil : MonotonicClock.milliseconds() + Int64(timeoutMilliseconds)
        while true {
            if try writableFrames() >= grant.wakeFrames { return .device }
            if ALSAPCM.state(pcm) == SND_PCM_STATE_PREPARED {
                // Data below the start threshold: start it, or it never drains and never wakes us.
                guard writtenFrames > 0 else { return .device }
                try check(ALSAPCM.start(pcm), "snd_pcm_start")
            }
            var descriptors = ALSAPCM.pollDescriptors(pcm)
            let own = descriptors.count
            descriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
            let timeout = limit.map { Int32(clamping: max($0 - MonotonicClock.milliseconds(), 0)) } ?? -1
            let ready: Int
            do {
                ready = try Poll.wait(&descriptors, timeoutMilliseconds: timeout)
            } catch {
                throw .deviceFailed(device: device, operation: "poll", reason: "\(error)")
            }
            if descriptors[own].revents != 0 { return .signalled }
            if let limit, MonotonicClock.milliseconds() >= limit { return .timedOut }
            guard ready > 0 else { continue }  // a signal (EINTR): wait again
            var device = Array(descriptors.prefix(own))
            let events = ALSAPCM.revents(pcm, &device)
            try check(min(events, 0), "snd_pcm_poll_descriptors_revents")
            if events & Int32(POLLERR) != 0 {
                // An underrun or a suspend: `writableFrames` recovers (and counts) on the next call.
                let state = ALSAPCM.state(pcm)
                guard state == SND_PCM_STATE_XRUN || state == SND_PCM_STATE_SUSPENDED else {
                    throw .deviceFailed(device: self.device, operation: "poll", reason: "the device reported an error")
                }
                return .device
            }
            // The device wants data. A kernel PCM says so at `avail_min`; alsa-lib's `pulse` plugin
            // ignores `avail_min` and says so at every period (whenever the server could take one):
            // refilling then keeps its stream fuller than the margin (measured: sleeping on the
            // clock until the margin instead ran PulseAudio's stream dry under load, BENCHMARKS.md).
            if events & Int32(POLLOUT) != 0 { return .device }
        }
    }

    public func waitUntilPlayed(orReadable descriptor: Int32, timeoutMilliseconds: Int32) throws(AudioOutputError) -> SinkWake {
        let limit = timeoutMilliseconds < 0 ? nil : MonotonicClock.milliseconds() + Int64(timeoutMilliseconds)
        guard let pcm, let format else { return .device }
        while true {
            let state = ALSAPCM.state(pcm)
            guard state == SND_PCM_STATE_RUNNING || state == SND_PCM_STATE_PREPARED else { return .device }
            let queued = min(max(ALSAPCM.delay(pcm) ?? 0, 0), writtenFrames)
            guard queued > 0 else { return .device }
            if state == SND_PCM_STATE_PREPARED { try check(ALSAPCM.start(pcm), "snd_pcm_start") }
            // Sleep for as long as the queued frames last; the device needs no attention meanwhile.
            var milliseconds = Int32(clamping: queued * 1000 / format.sampleRate + 1)
            if let limit {
                let left = limit - MonotonicClock.milliseconds()
                guard left > 0 else { return .timedOut }
                milliseconds = min(milliseconds, Int32(clamping: left))
            }
            var entry = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            do {
                if try Poll.wait(&entry, timeoutMilliseconds: milliseconds) > 0 { return .signalled }
            } catch {
                throw .deviceFailed(device: device, operation: "poll", reason: "\(error)")
            }
        }
    }

    /// `snd_pcm_recover` after a failed call: an underrun (`-EPIPE`, counted) or a suspend is
    /// recovered from; anything else is thrown as the failure of `operation`.
    func recover(_ pcm: OpaquePointer, from code: Int32, _ operation: String) throws(AudioOutputError) {
        if code == -EPIPE { underruns += 1 }
        try check(ALSAPCM.recover(pcm, from: code), operation)
    }
}
