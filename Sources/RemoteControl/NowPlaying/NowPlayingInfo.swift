/// The app's playback state as remote controls see it.
public enum PlaybackState: String, Sendable, Hashable, CaseIterable {
    /// Not playing and not resumable: outside the audio context (the endpoint gives up its name).
    case stopped
    case playing
    /// Paused by the user: still in the audio context (a headset's Play resumes it).
    case paused
    /// Interrupted by other audio (a call): still in the audio context, reported as `Paused`.
    case interrupted
}

/// Everything the app tells remote controls: the now-playing item and the playback state.
///
/// The position is not pushed continuously: the app records the elapsed time, the rate and the
/// monotonic instant it read them at, and the position is extrapolated when a client asks (MPRIS
/// `Position` is computed on `Get` and never signalled).
public struct NowPlayingInfo: Sendable, Hashable {
    /// The now-playing item; nil when there is none (outside the audio context).
    public var item: NowPlayingItem?
    public var playbackState: PlaybackState
    /// The position in the item at `timestamp`.
    public private(set) var elapsed: Duration
    /// The instant `elapsed` was taken.
    public private(set) var timestamp: MonotonicInstant
    /// The playback rate while playing (MPRIS `Rate`; 1 = normal speed).
    public var rate: Double
    /// MPRIS `MinimumRate` (≤ 1) and `MaximumRate` (≥ 1): the rates `changePlaybackRate` accepts.
    public var minimumRate: Double
    public var maximumRate: Double
    /// MPRIS `LoopStatus`.
    public var repeatMode: RepeatMode
    /// MPRIS `Shuffle`.
    public var shuffle: Bool
    /// The app's relative volume 0…1 (MPRIS `Volume`; G-VOLUME: never the system volume).
    public var volume: Double

    public init(item: NowPlayingItem? = nil, playbackState: PlaybackState = .stopped,
                elapsed: Duration = .zero, at timestamp: MonotonicInstant = .now, rate: Double = 1,
                minimumRate: Double = 1, maximumRate: Double = 1, repeatMode: RepeatMode = .none,
                shuffle: Bool = false, volume: Double = 1) {
        self.item = item
        self.playbackState = playbackState
        self.elapsed = elapsed
        self.timestamp = timestamp
        self.rate = rate
        self.minimumRate = minimumRate
        self.maximumRate = maximumRate
        self.repeatMode = repeatMode
        self.shuffle = shuffle
        self.volume = volume
    }

    /// Records the position: `elapsed` as read at `instant` (take both from the same clock
    /// reading, e.g. frames played minus the device delay).
    public mutating func setElapsed(_ elapsed: Duration, at instant: MonotonicInstant = .now) {
        self.elapsed = elapsed
        self.timestamp = instant
    }

    /// The position at `instant`: extrapolated at `rate` while playing, else the recorded one;
    /// never before the start nor after the end of the item.
    public func position(at instant: MonotonicInstant = .now) -> Duration {
        var position = elapsed
        if playbackState == .playing, rate.isFinite, rate > 0, instant > timestamp {
            let advanced = Double(instant.duration(since: timestamp).nanosecondsClamped) * rate
            position += .nanoseconds(Int64(saturating: advanced))
        }
        if position < .zero { position = .zero }
        if let duration = item?.duration, position > duration { position = duration }
        return position
    }
}

extension Int64 {
    /// A saturating conversion from a floating-point value (NaN becomes 0).
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.2e18 {
            self = .max
        } else if value <= -9.2e18 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}
