/// The remote commands an app can handle (G-RC-FAITHFUL: each means exactly one thing).
///
/// On the MPRIS endpoint: `play` ← `Play`, `pause` ← `Pause`, `togglePlayPause` ← `PlayPause`,
/// `stop` ← `Stop`, `nextTrack` ← `Next`, `previousTrack` ← `Previous`, `seek` ← `Seek`,
/// `changePlaybackPosition` ← `SetPosition`, `changePlaybackRate` ← `Rate` set,
/// `changeRepeatMode` ← `LoopStatus` set, `changeShuffleMode` ← `Shuffle` set, `changeVolume` ←
/// `Volume` set, `openURI` ← `OpenUri`, `raise` ← `Raise`, `quit` ← `Quit`.
public enum RemoteCommand: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case play, pause, togglePlayPause, stop, nextTrack, previousTrack
    case seek, changePlaybackPosition, changePlaybackRate, changeRepeatMode, changeShuffleMode
    case changeVolume, openURI, raise, quit

    public var description: String { rawValue }
}

/// What a command handler reports back.
public enum RemoteCommandStatus: Sendable, Hashable {
    /// Done.
    case success
    /// The content the command refers to does not exist (an unknown URI, no next track).
    case noSuchContent
    /// There is no now-playing item the command could act on.
    case noActionableNowPlayingItem
    /// The command was understood but could not be carried out.
    case commandFailed
}

/// The repeat (loop) mode of the queue: MPRIS `LoopStatus` `None`, `Track`, `Playlist`.
public enum RepeatMode: String, Sendable, Hashable, CaseIterable {
    case none, track, playlist

    /// The MPRIS `LoopStatus` spelling.
    public var loopStatus: String {
        switch self {
        case .none: "None"
        case .track: "Track"
        case .playlist: "Playlist"
        }
    }

    /// Reads an MPRIS `LoopStatus` value; nil for anything else.
    public init?(loopStatus: String) {
        switch loopStatus {
        case "None": self = .none
        case "Track": self = .track
        case "Playlist": self = .playlist
        default: return nil
        }
    }
}

/// One remote command as it reaches a handler, with its argument.
public enum RemoteCommandEvent: Sendable, Hashable {
    case play
    case pause
    case togglePlayPause
    case stop
    case nextTrack
    case previousTrack
    /// Move the playback position by `offset` (negative: backwards). Already clamped so that the
    /// target is not before the start (MPRIS `Seek`).
    case seek(offset: Duration)
    /// Go to `position` in the item whose `NowPlayingItem.id` is `itemID` (MPRIS `SetPosition`;
    /// the endpoint has checked that the item is the current one and the position in range).
    case changePlaybackPosition(itemID: String, position: Duration)
    /// Play at `rate` (1 = normal), within the advertised minimum and maximum.
    case changePlaybackRate(Double)
    case changeRepeatMode(RepeatMode)
    case changeShuffleMode(Bool)
    /// Set the app's own relative volume, 0…1 (G-VOLUME: never the system volume).
    case changeVolume(Double)
    /// Open and play this URI.
    case openURI(String)
    /// Bring the app's user interface to the front.
    case raise
    /// Quit the app.
    case quit

    /// The command this event belongs to.
    public var command: RemoteCommand {
        switch self {
        case .play: .play
        case .pause: .pause
        case .togglePlayPause: .togglePlayPause
        case .stop: .stop
        case .nextTrack: .nextTrack
        case .previousTrack: .previousTrack
        case .seek: .seek
        case .changePlaybackPosition: .changePlaybackPosition
        case .changePlaybackRate: .changePlaybackRate
        case .changeRepeatMode: .changeRepeatMode
        case .changeShuffleMode: .changeShuffleMode
        case .changeVolume: .changeVolume
        case .openURI: .openURI
        case .raise: .raise
        case .quit: .quit
        }
    }
}

/// A command handler. It runs on the thread that delivered the command — for the MPRIS endpoint,
/// the D-Bus connection's I/O thread — and must not block: change the player's state (or queue the
/// work), update the now-playing info, and return.
public typealias RemoteCommandHandler = @Sendable (RemoteCommandEvent) -> RemoteCommandStatus
