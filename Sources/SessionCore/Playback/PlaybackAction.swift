/// What a `PlaybackController` asks the app (or, for a foreign MPRIS player, the daemon) to do, in
/// order. Session actions go to the `AudioSession`; output actions to the player.
public enum PlaybackAction: Sendable, Hashable {
    /// `setActive(true)`; on failure skip the rest and call `activationFailed(_:)`; if delayed call
    /// `activationDelayed()`.
    case activateSession
    /// `setActive(false, options: notifyOthers ? [.notifyOthersOnDeactivation] : [])`.
    case deactivateSession(notifyOthers: Bool)
    /// Start or resume the app's own output (MPRIS `Play` for a foreign player).
    case startOutput
    /// Pause the app's own output, keeping the session and players (MPRIS `Pause`).
    case pauseOutput
    /// Show the interrupted state; do not tear anything down (G-INT-UI).
    case showInterrupted
    /// Lower (true) or restore (false) the output level: another session's duckOthers
    /// (G-CAT-OPTIONS). A daemon lowers a foreign player's MPRIS `Volume` and restores the exact
    /// prior value.
    case setDucked(Bool)
    /// Mute (true) or unmute (false) output for silent mode (G-SILENT), for apps that obey it.
    case setMuted(Bool)
    /// Silence (true) or bring back (false) secondary audio such as a game soundtrack (G-APP-GAME).
    case setSecondaryAudioSilenced(Bool)
    /// Media services were reset: rebuild players.
    case rebuildPlayers
    /// Take the remote-control events (G-RC-CONTEXT).
    case registerRemoteCommands
    /// Give the remote-control events up (G-RC-CONTEXT).
    case unregisterRemoteCommands
}
