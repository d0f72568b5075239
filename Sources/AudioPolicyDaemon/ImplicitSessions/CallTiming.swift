/// The times that keep implicit sessions honest (G-CALLS; issue 15, "Calls from any app").
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
    /// How long a call goes on after its app's last capture stream closed: Zoom or a browser
    /// switching input device mid-call closes the microphone's stream and opens a new one a few
    /// milliseconds later (issue 24). Without it the call would end and begin again in between —
    /// the music resumed for a blip, then interrupted again while the resume was on its way. Half
    /// a second covers a device switch and delays what follows a real hang-up by as much.
    public var reopenGrace: Duration

    /// How long a new app's *non-mixing* playback waits before its session activates: an MPRIS
    /// player's streams are its own (never an implicit session), but the daemon learns which
    /// process a player is only one bus round trip after it sees the player — and a player and
    /// its first stream often appear together (a daemon starting beside a playing browser). Half
    /// a second lets that claim land first, so a player is never paused by its own stream; music
    /// without MPRIS takes over half a second late. Calls, prompts and everything that mixes act
    /// at once.
    public var playerClaimWait: Duration
    /// How long non-mixing playback whose role may also be a UI sound (a pulse client's `video`
    /// through pipewire-pulse, which is `animation` too: `MediaRole`) waits before its session
    /// activates, counted from its stream's appearance. An animation's sound is over well within
    /// it and never touches the music; a video pauses the music this late, once. Players with
    /// MPRIS (mpv with mpv-mpris, VLC, Totem, browsers) are not held: their streams are theirs.
    public var ambiguousRoleWait: Duration

    public static let standard = CallTiming(corkedGrace: .seconds(5), heuristicMinimum: .seconds(3))

    public init(corkedGrace: Duration, heuristicMinimum: Duration, reopenGrace: Duration = .milliseconds(500),
                playerClaimWait: Duration = .milliseconds(500), ambiguousRoleWait: Duration = .seconds(3)) {
        self.corkedGrace = corkedGrace
        self.heuristicMinimum = heuristicMinimum
        self.reopenGrace = reopenGrace
        self.playerClaimWait = playerClaimWait
        self.ambiguousRoleWait = ambiguousRoleWait
    }
}
