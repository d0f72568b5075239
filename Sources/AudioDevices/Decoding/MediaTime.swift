/// Conversions between frame counts and time that never trap.
///
/// Frame counts, sample rates and lengths come from files, and files lie: libsndfile reports a
/// stream of unknown length (a truncated Ogg Opus) as `Int64.max` frames, and a plain product such
/// as `frames * 1_000_000_000` overflows for any file longer than about 53 hours at 48 kHz. Every
/// conversion the player makes goes through here: results saturate or come back as "unknown"
/// instead of trapping. (Durations to MPRIS microseconds: `Duration.microseconds`, saturating, in
/// RemoteControl.)
public enum MediaTime {
    /// The longest length believed: a claim beyond it (libsndfile's `Int64.max` for a stream of
    /// unknown length, a corrupt header) is shown as an unknown length.
    public static let longestPlausibleLength = Duration.seconds(10_000 * 3600)

    /// The highest sample rate a file may claim (8 × 192 kHz, beyond any real format).
    public static let highestSampleRate = 1_536_000

    /// The most channels a file may claim (more than any real layout; keeps a chunk's buffer small).
    public static let mostChannels = 256

    /// Whether a file's rate and channel count are believable: anything else is not audio we can
    /// play, and would make buffers absurd.
    public static func isPlausible(sampleRate: Int, channels: Int) -> Bool {
        (1...highestSampleRate).contains(sampleRate) && (1...mostChannels).contains(channels)
    }

    /// The time `frames` last at `sampleRate`, exact to the nanosecond (rounded down); zero for
    /// a negative count or a rate that is not positive.
    public static func duration(frames: Int, sampleRate: Int) -> Duration {
        guard frames > 0, sampleRate > 0 else { return .zero }
        let (seconds, remainder) = frames.quotientAndRemainder(dividingBy: sampleRate)
        // remainder < sampleRate, so remainder × 10⁹ / sampleRate < 10⁹: the full-width product
        // divides back without overflow.
        let product = remainder.multipliedFullWidth(by: 1_000_000_000)
        let nanoseconds = sampleRate.dividingFullWidth(product).quotient
        return .seconds(seconds) + .nanoseconds(nanoseconds)
    }

    /// The length of a file of `frames` at `sampleRate`, or nil when it is unknown: no frames, an
    /// invalid rate, under a nanosecond, or a claim beyond `longestPlausibleLength`.
    public static func knownLength(frames: Int, sampleRate: Int) -> Duration? {
        guard frames > 0, sampleRate > 0 else { return nil }
        let length = duration(frames: frames, sampleRate: sampleRate)
        return length > .zero && length <= longestPlausibleLength ? length : nil
    }

    /// The frame at `time` (rounded down), saturating at `Int.max`; 0 for a time before the start
    /// or a rate that is not positive.
    public static func frame(at time: Duration, sampleRate: Int) -> Int {
        guard time > .zero, sampleRate > 0 else { return 0 }
        // `components` traps beyond Int64 seconds (a Duration holds more).
        guard time < .seconds(Int64.max) else { return .max }
        let (seconds, attoseconds) = time.components
        let (whole, overflow) = Int(seconds).multipliedReportingOverflow(by: sampleRate)
        if overflow { return .max }
        // attoseconds < 10¹⁸, so attoseconds × rate / 10¹⁸ < rate: it divides back into an Int.
        let product = Int(attoseconds).multipliedFullWidth(by: sampleRate)
        let part = 1_000_000_000_000_000_000.dividingFullWidth(product).quotient
        let (sum, overflow2) = whole.addingReportingOverflow(part)
        return overflow2 ? .max : sum
    }

    /// `base + offset` for frame positions, saturating instead of trapping.
    public static func frame(_ base: Int, advancedBy offset: Int) -> Int {
        let (sum, overflow) = base.addingReportingOverflow(offset)
        guard overflow else { return sum }
        return offset > 0 ? .max : .min
    }

    /// Whole seconds in `frames` at `sampleRate` (for a clock display); 0 when invalid.
    public static func wholeSeconds(frames: Int, sampleRate: Int) -> Int {
        guard frames > 0, sampleRate > 0 else { return 0 }
        return frames / sampleRate
    }

    /// Seconds as a `Double` (for comparisons such as "within 3 s of the start").
    public static func seconds(_ duration: Duration) -> Double {
        guard duration < .seconds(Int64.max) else { return Double(Int64.max) }
        guard duration > .seconds(Int64.min) else { return Double(Int64.min) }
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole seconds of a `Double` (a clock display), saturating; 0 for NaN, infinities and
    /// negative values.
    public static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return seconds >= 9.2e18 ? .max : Int(seconds)
    }
}
