import Posix
#if canImport(Glibc)
import Glibc
#endif

/// The built-in output for machines without a sound card (`--device null`, or the fallback when
/// ALSA's `default` cannot be opened): samples are discarded, but time passes as on a real device.
///
/// It models a device with a deep buffer (2 s by default) played from an absolute schedule on
/// `CLOCK_MONOTONIC`: frame `n` plays at `anchor + n / rate`. `waitForRoom` sleeps in `poll()` on
/// the player's descriptor with a timeout that ends when the schedule has drained to the wake-up
/// margin (`WakeMargin`), so a playing player wakes once per refill, not per chunk; `write` of more
/// than there is room for sleeps with `clock_nanosleep(TIMER_ABSTIME)` until it fits. Either way
/// the player is paced at exactly 1× without drift; `playedFrames` is read off the clock. Pause
/// moves the schedule by the time spent paused (it stops at once: nothing queued is lost), and
/// while paused nothing runs at all. Writing after the schedule ran dry counts an underrun and
/// starts a new schedule at the current frame.
public final class SilentOutput: AudioSink {
    /// The simulated device buffer by default.
    public static let bufferNanoseconds: Int64 = 2_000_000_000

    /// This sink's buffer.
    public let bufferNanoseconds: Int64

    public var name: String { "silent" }
    public private(set) var format: StreamFormat?
    public private(set) var writtenFrames = 0
    public private(set) var underruns = 0
    public private(set) var isPaused = false
    public var canChangeRate: Bool { false }

    /// When frame 0 plays; `nil` until the first write after open, drop or drain.
    private var anchor: Int64?
    private var pausedAt: Int64?

    public init(bufferNanoseconds: Int64 = SilentOutput.bufferNanoseconds) {
        self.bufferNanoseconds = max(bufferNanoseconds, 1_000_000)
    }

    public var bufferFrames: Int {
        guard let format else { return 0 }
        return Int(bufferNanoseconds * Int64(format.sampleRate) / 1_000_000_000)
    }

    public func open(sampleRate: Int, channels: Int) throws(AudioOutputError) {
        let wanted = StreamFormat(sampleRate: sampleRate, channels: channels)
        guard sampleRate > 0, channels > 0 else {
            throw .formatUnsupported(device: name, format: wanted, reason: "invalid format")
        }
        if wanted == format { return }
        if format != nil, !isPaused { try drain() }
        format = wanted
        writtenFrames = 0
        anchor = nil
        pausedAt = nil
        isPaused = false
    }

    @discardableResult
    public func write(_ frames: UnsafeBufferPointer<Float>) throws(AudioOutputError) -> Int {
        guard let format else { throw .notOpen(device: name) }
        guard !isPaused else { throw .paused(device: name) }
        guard frames.count % format.channels == 0 else {
            throw .invalidBuffer(device: name, samples: frames.count, channels: format.channels)
        }
        let count = frames.count / format.channels
        guard count > 0 else { return 0 }
        let now = MonotonicClock.nanoseconds()
        if let anchor, now > anchor + duration(writtenFrames, format) {
            underruns += 1
            self.anchor = nil
        }
        if anchor == nil {
            anchor = now - duration(writtenFrames, format)
        }
        writtenFrames += count
        if let anchor {
            let roomAt = anchor + duration(writtenFrames, format) - bufferNanoseconds
            if roomAt > now { MonotonicClock.sleep(untilNanoseconds: roomAt) }
        }
        return count
    }

    public var playedFrames: Int {
        guard let format, let anchor else { return writtenFrames }
        let now = pausedAt ?? MonotonicClock.nanoseconds()
        let elapsed = Double(max(now - anchor, 0)) * Double(format.sampleRate) / 1e9
        return min(Int(elapsed), writtenFrames)
    }

    @discardableResult
    public func pause() throws(AudioOutputError) -> Int {
        guard format != nil, !isPaused else { return 0 }
        pausedAt = MonotonicClock.nanoseconds()
        isPaused = true
        return 0
    }

    public func resume() throws(AudioOutputError) {
        guard isPaused else { return }
        if let pausedAt, let anchor {
            self.anchor = anchor + (MonotonicClock.nanoseconds() - pausedAt)
        }
        pausedAt = nil
        isPaused = false
    }

    public func drain() throws(AudioOutputError) {
        guard let format else { return }
        try resume()
        if let anchor {
            MonotonicClock.sleep(untilNanoseconds: anchor + duration(writtenFrames, format))
        }
        anchor = nil
    }

    public func drop() throws(AudioOutputError) {
        writtenFrames = 0
        anchor = nil
        if isPaused { pausedAt = MonotonicClock.nanoseconds() }
    }

    public func close() {
        format = nil
        writtenFrames = 0
        anchor = nil
        pausedAt = nil
        isPaused = false
    }

    public func writableFrames() throws(AudioOutputError) -> Int {
        guard format != nil else { throw .notOpen(device: name) }
        guard !isPaused else { return 0 }
        return max(bufferFrames - queuedFrames, 0)
    }

    public func waitForRoom(orReadable descriptor: Int32, timeoutMilliseconds: Int32) throws(AudioOutputError) -> SinkWake {
        guard let format else { throw .notOpen(device: name) }
        guard !isPaused else { throw .paused(device: name) }
        let margin = WakeMargin.frames(buffer: bufferFrames)
        // The moment only `margin` frames are left to play (never, before the first write).
        guard let roomAt = anchor.map({ $0 + duration(writtenFrames - margin, format) }) else { return .device }
        return try sleep(until: roomAt, orReadable: descriptor, timeoutMilliseconds: timeoutMilliseconds)
    }

    public func waitUntilPlayed(orReadable descriptor: Int32, timeoutMilliseconds: Int32) throws(AudioOutputError) -> SinkWake {
        guard let format, let playedAt = anchor.map({ $0 + duration(writtenFrames, format) }) else { return .device }
        return try sleep(until: playedAt, orReadable: descriptor, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Frames written but not yet played by the schedule.
    private var queuedFrames: Int { writtenFrames - playedFrames }

    /// `poll()` on `descriptor` until `deadline` (monotonic nanoseconds) or, earlier, until
    /// `timeoutMilliseconds` passed (-1: no limit; `.timedOut`).
    private func sleep(until deadline: Int64, orReadable descriptor: Int32,
                       timeoutMilliseconds: Int32) throws(AudioOutputError) -> SinkWake {
        if timeoutMilliseconds >= 0 {
            let limit = MonotonicClock.nanoseconds() + Int64(timeoutMilliseconds) * 1_000_000
            if limit < deadline {
                let wake = try sleep(until: limit, orReadable: descriptor, timeoutMilliseconds: -1)
                return wake == .device ? .timedOut : wake
            }
        }
        var entry = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            let left = deadline - MonotonicClock.nanoseconds()
            guard left > 0 else { break }
            // Rounded up: waking a fraction of a millisecond late costs nothing, early costs a wake-up.
            let milliseconds = Int32(clamping: (left + 999_999) / 1_000_000)
            do {
                if try Poll.wait(&entry, timeoutMilliseconds: milliseconds) > 0 { return .signalled }
            } catch {
                throw .deviceFailed(device: name, operation: "poll", reason: "\(error)")
            }
        }
        return .device
    }

    /// Nanoseconds that `frames` last at the format's rate.
    private func duration(_ frames: Int, _ format: StreamFormat) -> Int64 {
        Int64((Double(frames) * 1e9 / Double(format.sampleRate)).rounded())
    }
}
