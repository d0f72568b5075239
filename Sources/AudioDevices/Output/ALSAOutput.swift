import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// A sink on an ALSA PCM, opened by name (`default`, `hw:0`, `pulse`, a PCM from an asound.conf).
///
/// Buffer ~4 s, or ~12 s on a user-space plugin (`pluginBufferMicroseconds`; what the device
/// grants: `bufferFrames`), period a third of it, `avail_min` the buffer less `WakeMargin`
/// (ALSAPCM.configure): the player fills it, then sleeps in `poll()` on the PCM's descriptors
/// (`waitForRoom`) until it has drained to the margin. Why thirds, and deeper on a plugin: on
/// alsa-lib's `pulse` plugin every write restarts libpulse's timing updates (10 ms, 20 ms, … up to
/// 1.5 s apart: about eight round trips to the server per write) and the plugin wakes its caller at
/// every period, so the wake-ups follow the
/// number of refills: 12.5 a second with 2 s in quarters, 8 with 4 s in thirds, 2.7 with 12 s in
/// thirds (BENCHMARKS.md, Issue 18). A kernel PCM wakes the player only at `avail_min` and grants
/// what its driver preallocated (often far less than 4 s); other alsa-lib PCMs (`file`, `dmix`, a
/// `plug` over a card) keep 4 s: `file` writes out a buffer behind, and nothing there pays per write.
/// 12 s of 16-bit stereo at 48 kHz stays inside the `pulse` plugin's 4 MiB. The stream starts when the
/// buffer first fills (or when the player waits on a partly filled one); `write` blocks in
/// `snd_pcm_writei` only when given more than there is room for. Pause uses `snd_pcm_pause` when
/// the hardware can (`snd_pcm_hw_params_can_pause`); otherwise it drops the buffer and prepares
/// the stream again, and says how many frames it dropped. Not `Sendable`: one thread owns it.
public final class ALSAOutput: AudioSink {
    /// The buffer length asked of a device by default; the period is a third of it.
    public static let bufferMicroseconds = 4_000_000
    /// The buffer length asked by default of a user-space plugin with a thread of its own
    /// (`SND_PCM_TYPE_IOPLUG`: `pulse`, `pipewire`), where every write costs that thread wake-ups.
    public static let pluginBufferMicroseconds = 12_000_000

    /// The PCM name.
    public let device: String
    public var name: String { device }
    public private(set) var format: StreamFormat?
    /// The sample format the device accepted at the last `open`.
    public private(set) var sampleFormat: ALSASampleFormat?
    public private(set) var writtenFrames = 0
    public internal(set) var underruns = 0
    public private(set) var isPaused = false
    /// What the device granted at the last `open` (buffer, period, wake-up threshold).
    var grant: ALSAGrant?
    public var bufferFrames: Int { grant?.bufferFrames ?? 0 }
    /// The period the device granted (frames; 0 before `open`).
    public var periodFrames: Int { grant?.periodFrames ?? 0 }
    /// `avail_min`: the room at which `waitForRoom` returns (frames; 0 before `open`).
    public var wakeFrames: Int { grant?.wakeFrames ?? 0 }
    /// Whether the device pauses in place (`snd_pcm_hw_params_can_pause`, asked at `open`); `false`
    /// means `pause` drops the buffer. Settable inside the module so tests can take that path on a
    /// device that could pause.
    public internal(set) var pausesInPlace = false
    public var canChangeRate: Bool { false }

    private let sampleFormats: [ALSASampleFormat]
    private let requestedBuffer: Int
    /// The open PCM (the audio thread's alone, like the whole sink).
    var pcm: OpaquePointer?
    private var converted: [Int16] = []

    /// Opens the PCM `device` (no format yet: `open(sampleRate:channels:)` configures it).
    ///
    /// - Parameter sampleFormats: the formats to offer, first accepted wins. S16 first: every
    ///   device takes it and 16-bit sources pass bit-exact.
    ///   - bufferMicroseconds: the buffer to ask for; the device may grant less (`bufferFrames`).
    ///     Nil: `pluginBufferMicroseconds` on a user-space plugin, else `bufferMicroseconds`.
    /// - Throws: `.deviceUnavailable` with alsa-lib's reason (`Unknown PCM`, no card, busy).
    public init(device: String = "default",
                sampleFormats: [ALSASampleFormat] = [.s16LE, .float32LE],
                bufferMicroseconds: Int? = nil) throws(AudioOutputError) {
        self.device = device
        // Floats go out as they are in memory, which is FLOAT_LE only on a little-endian host.
        let usable = ALSAOutput.hostIsLittleEndian ? sampleFormats : sampleFormats.filter { $0 != .float32LE }
        self.sampleFormats = usable.isEmpty ? [.s16LE] : usable
        let handle = try ALSAOutput.openDevice(device)
        pcm = handle
        let byType = ALSAPCM.isIOPlugin(handle) ? ALSAOutput.pluginBufferMicroseconds : ALSAOutput.bufferMicroseconds
        requestedBuffer = max(bufferMicroseconds ?? byType, 10_000)
    }

    deinit {
        if let pcm { ALSAPCM.close(pcm) }
    }

    public func open(sampleRate: Int, channels: Int) throws(AudioOutputError) {
        let wanted = StreamFormat(sampleRate: sampleRate, channels: channels)
        if pcm != nil, wanted == format {
            return
        }
        guard sampleRate > 0, channels > 0 else {
            throw .formatUnsupported(device: device, format: wanted, reason: "invalid format")
        }
        let handle: OpaquePointer
        if let pcm {
            handle = pcm
            if format != nil, !isPaused { _ = ALSAPCM.drain(handle) }
            _ = ALSAPCM.drop(handle)
        } else {
            handle = try ALSAOutput.openDevice(device)
            pcm = handle
        }
        format = nil
        sampleFormat = nil
        grant = nil
        var failure = ""
        for candidate in sampleFormats {
            let outcome = ALSAPCM.configure(handle, format: candidate.alsa, sampleRate: sampleRate, channels: channels,
                                            bufferMicroseconds: requestedBuffer,
                                            periodMicroseconds: requestedBuffer / 3) { buffer, _ in
                buffer - WakeMargin.frames(buffer: buffer)
            }
            if let granted = outcome.grant {
                sampleFormat = candidate
                grant = granted
                break
            }
            failure = "\(candidate): " + ALSAErrorCapture.reason(outcome.code, outcome.messages)
        }
        guard sampleFormat != nil else {
            throw .formatUnsupported(device: device, format: wanted, reason: failure)
        }
        format = wanted
        pausesInPlace = ALSAPCM.canPause(handle)
        writtenFrames = 0
        isPaused = false
    }

    @discardableResult
    public func write(_ frames: UnsafeBufferPointer<Float>) throws(AudioOutputError) -> Int {
        guard let pcm, let format, let sampleFormat else { throw .notOpen(device: device) }
        guard !isPaused else { throw .paused(device: device) }
        guard frames.count % format.channels == 0 else {
            throw .invalidBuffer(device: device, samples: frames.count, channels: format.channels)
        }
        guard let base = frames.baseAddress, !frames.isEmpty else { return 0 }
        let total = frames.count / format.channels
        switch sampleFormat {
        case .float32LE:
            try writeAll(pcm, UnsafeRawPointer(base), frames: total, bytesPerFrame: 4 * format.channels)
        case .s16LE:
            if converted.count < frames.count { converted = [Int16](repeating: 0, count: frames.count) }
            try converted.withUnsafeMutableBufferPointer { (target) throws(AudioOutputError) in
                guard let out = target.baseAddress else { return }
                SampleConversion.s16LE(frames, into: out)
                try writeAll(pcm, UnsafeRawPointer(out), frames: total, bytesPerFrame: 2 * format.channels)
            }
        }
        writtenFrames += total
        return total
    }

    public var playedFrames: Int {
        guard let pcm, format != nil else { return 0 }
        let delay = ALSAPCM.delay(pcm) ?? 0
        return min(max(writtenFrames - delay, 0), writtenFrames)
    }

    @discardableResult
    public func pause() throws(AudioOutputError) -> Int {
        guard let pcm, format != nil, !isPaused else { return 0 }
        guard ALSAPCM.state(pcm) == SND_PCM_STATE_RUNNING else {
            // Not started (the buffer never filled), stopped by an underrun, or drained: the device
            // is already silent and idle; the flag alone keeps writes out.
            isPaused = true
            return 0
        }
        if pausesInPlace, ALSAPCM.pause(pcm, true) >= 0 {
            isPaused = true
            return 0
        }
        let queued = min(max(ALSAPCM.delay(pcm) ?? 0, 0), writtenFrames)
        try check(ALSAPCM.drop(pcm), "snd_pcm_drop")
        try check(ALSAPCM.prepare(pcm), "snd_pcm_prepare")
        writtenFrames -= queued
        isPaused = true
        return queued
    }

    public func resume() throws(AudioOutputError) {
        guard let pcm, isPaused else { return }
        if ALSAPCM.state(pcm) == SND_PCM_STATE_PAUSED {
            let code = ALSAPCM.pause(pcm, false)
            if code < 0 {
                // The device lost its paused stream (a suspend in between): start over empty.
                try check(ALSAPCM.recover(pcm, from: code), "snd_pcm_pause")
            }
        }
        isPaused = false
    }

    public func drain() throws(AudioOutputError) {
        guard let pcm, format != nil else { return }
        try resume()
        let state = ALSAPCM.state(pcm)
        if state == SND_PCM_STATE_RUNNING || state == SND_PCM_STATE_PREPARED {
            let code = ALSAPCM.drain(pcm)
            if code < 0, code != -EPIPE { try check(code, "snd_pcm_drain") }
        }
        try check(ALSAPCM.prepare(pcm), "snd_pcm_prepare")
    }

    public func drop() throws(AudioOutputError) {
        guard let pcm, format != nil else { return }
        try check(ALSAPCM.drop(pcm), "snd_pcm_drop")
        try check(ALSAPCM.prepare(pcm), "snd_pcm_prepare")
        writtenFrames = 0
    }

    public func close() {
        if let pcm { ALSAPCM.close(pcm) }
        pcm = nil
        format = nil
        sampleFormat = nil
        grant = nil
        writtenFrames = 0
        isPaused = false
    }

    // MARK: Helpers

    private static let hostIsLittleEndian = 1.littleEndian == 1

    private static func openDevice(_ device: String) throws(AudioOutputError) -> OpaquePointer {
        let opened = ALSAPCM.open(device)
        guard let pcm = opened.pcm else {
            throw .deviceUnavailable(device: device, reason: ALSAErrorCapture.reason(opened.code, opened.messages))
        }
        return pcm
    }

    /// `snd_pcm_writei` until every frame is in, recovering from underruns (counted) on the way.
    private func writeAll(_ pcm: OpaquePointer, _ data: UnsafeRawPointer, frames: Int,
                          bytesPerFrame: Int) throws(AudioOutputError) {
        var done = 0
        while done < frames {
            let result = ALSAPCM.write(pcm, data + done * bytesPerFrame, frames: frames - done)
            if result >= 0 {
                done += result
                continue
            }
            let code = Int32(truncatingIfNeeded: result)
            if code == -EAGAIN || code == -EINTR { continue }
            if code == -EPIPE { underruns += 1 }
            try check(ALSAPCM.recover(pcm, from: code), "snd_pcm_writei")
        }
    }

    func check(_ code: Int32, _ operation: String) throws(AudioOutputError) {
        guard code < 0 else { return }
        throw .deviceFailed(device: device, operation: operation, reason: ALSAPCM.describe(code))
    }
}
