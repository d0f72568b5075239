/// The rate and channel count a sink is configured for.
public struct StreamFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { "\(sampleRate) Hz, \(channels) ch" }
}

/// Where decoded audio goes: interleaved `Float` samples in -1…1, written by the player's own audio
/// thread.
///
/// Two implementations: `ALSAOutput` (a real PCM) and `SilentOutput` (the built-in output for
/// machines without a sound card, paced in real time). Neither is `Sendable` nor uses Swift
/// concurrency: one thread owns a sink. Create it on that thread (call `OutputSelection.choose` at
/// the top of the audio thread's body) and publish what other threads need (position, state) from
/// there. A paused sink costs nothing: no timer, no poll, no thread wakes up.
///
/// Pacing: both keep a deep buffer (`bufferFrames`: seconds) so that a player wakes about once a
/// second or less, not once per chunk. The player asks `writableFrames()`, writes that much (which
/// does not block), and sleeps in `waitForRoom(orReadable:)` until the device has drained to its wake-up
/// threshold — a margin before it would run dry — or its own descriptor (a command) is readable,
/// so that a pause or a seek acts at once instead of after the buffered audio. `write` of more
/// than there is room for still blocks until it fits (simple callers, tests).
///
/// Position bookkeeping: `writtenFrames` counts frames accepted since `open` or the last `drop`;
/// `playedFrames` is that minus what the device still holds (its delay), so it follows the device's
/// clock, and the player's position is its start offset plus `playedFrames`.
///
/// Gain is not a sink's business: the player applies its relative volume with `Gain` first.
public protocol AudioSink: AnyObject {
    /// A short name for messages: the ALSA PCM name, or `silent`.
    var name: String { get }
    /// The current configuration; `nil` before `open` and after `close`.
    var format: StreamFormat? { get }

    /// Configures the sink for a stream. Same format as now: nothing happens (gapless between
    /// tracks). Another format: frames still queued are played out first, then the device is
    /// reconfigured. After `close`, reopens the device. Resets the counters and the paused state.
    func open(sampleRate: Int, channels: Int) throws(AudioOutputError)

    /// Queues interleaved frames (`frames.count` a multiple of `format.channels`), blocking until the
    /// device accepted all of them. Recovers from underruns on the way (see `underruns`).
    ///
    /// - Returns: the frames written.
    /// - Throws: `.notOpen`, `.paused` (resume first), `.invalidBuffer`, or `.deviceFailed`.
    @discardableResult
    func write(_ frames: UnsafeBufferPointer<Float>) throws(AudioOutputError) -> Int

    /// Stops the device where it is; `playedFrames` freezes. Does nothing when already paused.
    ///
    /// - Returns: frames that were queued but will never play because the device could not pause
    ///   in place and its buffer was dropped (0 when it paused in place). They are already taken off
    ///   `writtenFrames`; to lose nothing, the player rewinds its decoder by this many frames.
    @discardableResult
    func pause() throws(AudioOutputError) -> Int

    /// Continues after `pause`. Does nothing when not paused.
    func resume() throws(AudioOutputError)

    /// Blocks until every queued frame was played (resuming first when paused). The end of a queue.
    func drain() throws(AudioOutputError)

    /// Discards queued frames at once and resets the counters to 0 (a seek, a stop, Next).
    /// A paused sink stays paused.
    func drop() throws(AudioOutputError)

    /// Releases the device (idempotent). `open` acquires it again.
    func close()

    /// Frames accepted since `open` or the last `drop`.
    var writtenFrames: Int { get }
    /// Frames the listener has heard since `open` or the last `drop`: `writtenFrames` minus the
    /// device's delay.
    var playedFrames: Int { get }
    /// Underruns recovered from since the sink was created (the device ran dry and restarted).
    var underruns: Int { get }
    /// Whether `pause` is in effect.
    var isPaused: Bool { get }
    /// The ring buffer granted at `open`, in frames (0 before).
    var bufferFrames: Int { get }

    /// Frames `write` takes now without blocking (0 while paused). Recovers from an underrun first
    /// (counted in `underruns`).
    /// - Throws: `.notOpen`, or `.deviceFailed` when the device is lost.
    func writableFrames() throws(AudioOutputError) -> Int

    /// Sleeps until the device wants data — room for its wake-up threshold, which leaves a margin
    /// of queued audio for the scheduling delays of a loaded machine — or `descriptor` is readable,
    /// or `timeoutMilliseconds` passed (-1: no limit). Returns at once when there is that much room
    /// already. Starts a stream that holds data but has not reached its start threshold (a short
    /// track), which would otherwise never drain.
    /// - Throws: `.notOpen`, `.paused`, or `.deviceFailed`.
    func waitForRoom(orReadable descriptor: Int32, timeoutMilliseconds: Int32) throws(AudioOutputError) -> SinkWake

    /// Sleeps until every queued frame was played or `descriptor` is readable or
    /// `timeoutMilliseconds` passed (-1: no limit): `drain` that a command can interrupt (the tail
    /// at the end of a queue). `.device` once played.
    func waitUntilPlayed(orReadable descriptor: Int32, timeoutMilliseconds: Int32) throws(AudioOutputError) -> SinkWake

    /// Whether the playback rate can change. `false` for both sinks today: neither resamples, so the
    /// player answers MPRIS with `Rate` = `MinimumRate` = `MaximumRate` = 1.
    var canChangeRate: Bool { get }
}

/// What ended one of a sink's waits.
public enum SinkWake: Sendable, Equatable {
    /// The device: it has room for more (`waitForRoom`), or it played everything (`waitUntilPlayed`).
    case device
    /// The caller's descriptor became readable (a command for the audio thread); not drained.
    case signalled
    /// The caller's time limit passed.
    case timedOut
}

/// How far ahead of running dry a sink wakes its player, from the buffer it has.
public enum WakeMargin {
    /// Frames still queued when the player is woken to refill: half the buffer (1 s of a 2 s
    /// buffer: one refill a second). Measured with both CPUs fully loaded (BENCHMARKS.md, Issue
    /// 18): a sleeping thread woke up to 190 ms late (p99.9), and a refill then decodes and writes
    /// a second of audio competing for the CPU; a quarter of the buffer (500 ms) ran dry twice in
    /// 10 minutes, half did not.
    public static func frames(buffer: Int) -> Int {
        buffer / 2
    }
}
