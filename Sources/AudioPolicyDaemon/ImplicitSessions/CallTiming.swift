/// The two times that keep calls from any app honest (G-CALLS; issue 15, "Calls from any app").
public struct CallTiming: Sendable, Hashable {
    /// How long a call app's capture stream may stay corked before its call ends: some apps
    /// cork their capture stream between calls, or while the user mutes themselves, instead of
    /// closing it (audio-server-notes.md). Muting yourself for a few seconds is not hanging up;
    /// a capture corked longer than this is.
    public var corkedGrace: Duration
    /// How long a browser's generic input ("Chromium input", Firefox's capture) must be held
    /// together with playback of the same process before it counts as a call: voice search or
    /// dictation opens the microphone for a second or two, a call holds it and plays the other
    /// side. Three seconds rules out the two-second voice search and delays a real browser call's
    /// effect on the music by three seconds, once, at its start.
    public var heuristicMinimum: Duration

    public static let standard = CallTiming(corkedGrace: .seconds(5), heuristicMinimum: .seconds(3))

    public init(corkedGrace: Duration, heuristicMinimum: Duration) {
        self.corkedGrace = corkedGrace
        self.heuristicMinimum = heuristicMinimum
    }
}
