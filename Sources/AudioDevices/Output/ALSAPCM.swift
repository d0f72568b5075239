import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// The alsa-lib PCM calls `ALSAOutput` makes, each wrapped once. Negative return values are
/// `-errno` codes, as alsa-lib returns them.
enum ALSAPCM {
    /// `snd_pcm_open` for playback: non-blocking first, so a busy device fails at once instead of
    /// hanging the player, then `snd_pcm_nonblock(…, 0)` so writes block (aplay does the same).
    static func open(_ device: String) -> (pcm: OpaquePointer?, code: Int32, messages: [String]) {
        let (outcome, messages) = ALSAErrorCapture.capturing { () -> (OpaquePointer?, Int32) in
            var pcm: OpaquePointer?
            let code = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, Int32(SND_PCM_NONBLOCK))
            guard code >= 0, let pcm else { return (nil, code < 0 ? code : -ENODEV) }
            let blocking = snd_pcm_nonblock(pcm, 0)
            guard blocking >= 0 else {
                snd_pcm_close(pcm)
                return (nil, blocking)
            }
            return (pcm, 0)
        }
        return (outcome.0, outcome.1, messages)
    }

    /// `snd_pcm_type` is `SND_PCM_TYPE_IOPLUG`: the PCM is a user-space plugin that hands the
    /// audio to a thread of its own (alsa-plugins' `pulse`, PipeWire's `pipewire`, `jack`).
    static func isIOPlugin(_ pcm: OpaquePointer) -> Bool {
        snd_pcm_type(pcm) == SND_PCM_TYPE_IOPLUG
    }

    /// `snd_pcm_close`.
    static func close(_ pcm: OpaquePointer) {
        snd_pcm_close(pcm)
    }

    /// `snd_pcm_hw_params_current` + `snd_pcm_hw_params_can_pause`: whether the configured device
    /// can pause in place (`snd_pcm_pause`).
    static func canPause(_ pcm: OpaquePointer) -> Bool {
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) >= 0, let params else { return false }
        defer { snd_pcm_hw_params_free(params) }
        guard snd_pcm_hw_params_current(pcm, params) >= 0 else { return false }
        return snd_pcm_hw_params_can_pause(params) == 1
    }

    /// `snd_pcm_writei`: frames written, or a negative error code.
    static func write(_ pcm: OpaquePointer, _ data: UnsafeRawPointer, frames: Int) -> Int {
        snd_pcm_writei(pcm, data, snd_pcm_uframes_t(frames))
    }

    /// `snd_pcm_recover` (silent): prepares the stream again after an underrun (`-EPIPE`) or a
    /// suspend (`-ESTRPIPE`); returns 0 or the error it could not handle.
    static func recover(_ pcm: OpaquePointer, from code: Int32) -> Int32 {
        snd_pcm_recover(pcm, code, 1)
    }

    /// `snd_pcm_delay`: frames between what was written and what the listener hears, or `nil` when
    /// the stream is not running (after an underrun, before `prepare`).
    static func delay(_ pcm: OpaquePointer) -> Int? {
        var frames: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &frames) >= 0 else { return nil }
        return frames
    }

    /// `snd_pcm_state`.
    static func state(_ pcm: OpaquePointer) -> snd_pcm_state_t {
        snd_pcm_state(pcm)
    }

    /// `snd_pcm_pause`: 1 pauses, 0 continues.
    static func pause(_ pcm: OpaquePointer, _ enable: Bool) -> Int32 {
        snd_pcm_pause(pcm, enable ? 1 : 0)
    }

    /// `snd_pcm_drop`: stops at once, discarding queued frames.
    static func drop(_ pcm: OpaquePointer) -> Int32 {
        snd_pcm_drop(pcm)
    }

    /// `snd_pcm_drain`: blocks until queued frames played, then stops.
    static func drain(_ pcm: OpaquePointer) -> Int32 {
        snd_pcm_drain(pcm)
    }

    /// `snd_pcm_prepare`: makes a stopped stream writable again.
    static func prepare(_ pcm: OpaquePointer) -> Int32 {
        snd_pcm_prepare(pcm)
    }

    /// `snd_strerror`.
    static func describe(_ code: Int32) -> String {
        String(cString: snd_strerror(code))
    }
}
