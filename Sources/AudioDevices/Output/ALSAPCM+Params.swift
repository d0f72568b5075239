import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// What a device granted at `ALSAPCM.configure`: the ring buffer, the period (the unit of the
/// device's interrupts; for the `pulse` plugin, the server's request size), and the wake-up
/// threshold set as `avail_min`.
struct ALSAGrant: Equatable {
    var bufferFrames: Int
    var periodFrames: Int
    var wakeFrames: Int
}

extension ALSAPCM {
    /// The hardware and software parameters for a deep buffer, in place of `snd_pcm_set_params`
    /// (which fixes the period at a quarter of the buffer and `avail_min` at one period):
    /// `snd_pcm_hw_params_any`, `_set_rate_resample`, `_set_access` (RW interleaved), `_set_format`,
    /// `_set_channels`, `_set_rate_near` (must be exact: alsa-lib's plug resamples where it can),
    /// `_set_buffer_time_near`, `_set_period_time_near`, `snd_pcm_hw_params`; then
    /// `snd_pcm_sw_params_current`, `_set_start_threshold` (the buffer less one period),
    /// `_set_avail_min` and `snd_pcm_sw_params`.
    ///
    /// `wake(buffer, period)` chooses `avail_min` from what was granted.
    static func configure(_ pcm: OpaquePointer, format: snd_pcm_format_t, sampleRate: Int, channels: Int,
                          bufferMicroseconds: Int, periodMicroseconds: Int,
                          wake: (_ buffer: Int, _ period: Int) -> Int)
        -> (grant: ALSAGrant?, code: Int32, messages: [String]) {
        let (outcome, messages) = ALSAErrorCapture.capturing { () -> (ALSAGrant?, Int32) in
            var hw: OpaquePointer?
            guard snd_pcm_hw_params_malloc(&hw) >= 0, let hw else { return (nil, -ENOMEM) }
            defer { snd_pcm_hw_params_free(hw) }
            var code = snd_pcm_hw_params_any(pcm, hw)
            if code >= 0 { code = snd_pcm_hw_params_set_rate_resample(pcm, hw, 1) }
            if code >= 0 { code = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED) }
            if code >= 0 { code = snd_pcm_hw_params_set_format(pcm, hw, format) }
            if code >= 0 { code = snd_pcm_hw_params_set_channels(pcm, hw, UInt32(channels)) }
            var rate = UInt32(sampleRate)
            if code >= 0 { code = snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, nil) }
            if code >= 0, rate != UInt32(sampleRate) { code = -EINVAL }
            var bufferTime = UInt32(bufferMicroseconds)
            if code >= 0 { code = snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, nil) }
            var periodTime = UInt32(periodMicroseconds)
            // A device with fixed periods may refuse this one; the buffer it granted is what counts.
            if code >= 0 { _ = snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodTime, nil) }
            if code >= 0 { code = snd_pcm_hw_params(pcm, hw) }
            guard code >= 0 else { return (nil, code) }
            var bufferSize: snd_pcm_uframes_t = 0
            var periodSize: snd_pcm_uframes_t = 0
            var direction: Int32 = 0
            snd_pcm_hw_params_get_buffer_size(hw, &bufferSize)
            snd_pcm_hw_params_get_period_size(hw, &periodSize, &direction)
            let buffer = Int(bufferSize)
            let period = max(1, min(Int(periodSize), buffer))
            let wakeFrames = min(max(wake(buffer, period), period), buffer)

            var sw: OpaquePointer?
            guard snd_pcm_sw_params_malloc(&sw) >= 0, let sw else { return (nil, -ENOMEM) }
            defer { snd_pcm_sw_params_free(sw) }
            code = snd_pcm_sw_params_current(pcm, sw)
            if code >= 0 {
                code = snd_pcm_sw_params_set_start_threshold(pcm, sw, snd_pcm_uframes_t(max(buffer - period, 1)))
            }
            if code >= 0 { code = snd_pcm_sw_params_set_avail_min(pcm, sw, snd_pcm_uframes_t(wakeFrames)) }
            if code >= 0 { code = snd_pcm_sw_params(pcm, sw) }
            guard code >= 0 else { return (nil, code) }
            return (ALSAGrant(bufferFrames: buffer, periodFrames: period, wakeFrames: wakeFrames), 0)
        }
        return (outcome.0, outcome.1, messages)
    }
}
