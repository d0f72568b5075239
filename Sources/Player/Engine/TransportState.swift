import RemoteControl

/// What the user (or the session) wants the output to do.
enum Transport: Sendable, Equatable {
    case playing, paused, stopped
}

/// A change of track or position, applied by the audio thread as soon as `wakeEvent` wakes it (it
/// sleeps in `poll()` on the device and that eventfd), or between two decoding slices of a refill.
enum PositionRequest: Sendable, Equatable {
    case next
    case previous
    /// Move by an offset (MPRIS `Seek`); past the end acts as Next.
    case seek(by: Duration)
    /// Go to a position of the current track (MPRIS `SetPosition`).
    case setPosition(Duration)
}

/// The state shared between the D-Bus thread (remote commands), the audio thread and the main
/// thread. Always accessed under `PlayerEngine.shared`.
struct SharedState {
    var transport = Transport.paused
    var queue: PlayQueue
    var volume: Double
    var requests: [PositionRequest] = []
    /// Set by the audio thread when the queue ended or the player stopped; the exit status.
    var finished: Int32?
    /// Tracks that played at least one chunk (for the exit status).
    var playedAnything = false
    /// The ALSA PCM the session's route calls for (nil: the default device); the audio thread
    /// moves playback there when it differs from the sink's (G-ROUTE-PICK).
    var outputDevice: String?
    /// Another session ducks this one (a navigation prompt): the gain is lowered while it lasts.
    var ducked = false
}
