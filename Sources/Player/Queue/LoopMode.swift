/// What happens at the end of a track or of the queue (MPRIS `LoopStatus`).
public enum LoopMode: String, Sendable, CaseIterable {
    /// Stop after the last track.
    case none
    /// Repeat the current track.
    case track
    /// Start the queue again after the last track.
    case playlist
}
