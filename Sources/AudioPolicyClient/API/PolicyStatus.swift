/// What the daemon reports through `GetStatus` and `mprisd status --json`.
///
/// Stable: fields are only ever added, never renamed or removed; `version` changes if that promise
/// is ever broken. Documented in docs/audio-policy-api.md.
public struct PolicyStatus: Codable, Sendable, Hashable {
    /// One port (jack, Bluetooth device, configured ALSA device, the speaker).
    public struct Port: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
        /// SessionCore's `PortType` raw name: speaker, headphones, bluetoothA2DP, …
        public var type: String

        public init(id: String, name: String, type: String) {
            self.id = id
            self.name = name
            self.type = type
        }
    }

    /// Outputs that exist now, and the user's pick.
    public struct Route: Codable, Sendable, Hashable {
        /// The picked port id; nil: automatic.
        public var override: String?
        /// What playback sessions get now (the route of a playback configuration).
        public var outputs: [Port]
        /// Every output available now.
        public var available: [Port]

        public init(override: String? = nil, outputs: [Port] = [], available: [Port] = []) {
            self.override = override
            self.outputs = outputs
            self.available = available
        }
    }

    /// A registered session (a client of the daemon, or a foreign player's stand-in).
    public struct Session: Codable, Sendable, Hashable {
        public var id: UInt64
        /// The unique bus name that owns it.
        public var owner: String
        /// The display name given at registration (or the player's bus name).
        public var name: String
        public var category: String
        public var mode: String
        public var options: [String]
        public var active: Bool
        public var interrupted: Bool
        public var ducked: Bool
        /// The audio server's sinks its streams play on now (empty: none); nil where no server
        /// is followed. Where a sink it plays on goes away, it loses its device.
        public var audibleOn: [String]?

        public init(id: UInt64, owner: String, name: String, category: String, mode: String,
                    options: [String], active: Bool, interrupted: Bool, ducked: Bool) {
            self.id = id
            self.owner = owner
            self.name = name
            self.category = category
            self.mode = mode
            self.options = options
            self.active = active
            self.interrupted = interrupted
            self.ducked = ducked
        }
    }

    /// One playback stream of a player (`Player.streams`).
    public struct PlayerStream: Codable, Sendable, Hashable {
        /// The server's index of the sink input, as `pactl` shows it.
        public var index: UInt32
        /// The sink it plays on; nil while the server moves it.
        public var sink: String?
        /// The loudest channel's volume: 1.0 is 100 %.
        public var volume: Double
        public var muted: Bool

        public init(index: UInt32, sink: String?, volume: Double, muted: Bool) {
            self.index = index
            self.sink = sink
            self.volume = volume
            self.muted = muted
        }
    }

    /// An MPRIS player that is not one of our sessions.
    public struct Player: Codable, Sendable, Hashable {
        public var busName: String
        public var owner: String
        /// Its `PlaybackStatus`: Playing, Paused or Stopped.
        public var status: String
        /// The session standing in for it.
        public var session: UInt64
        /// Whether the daemon paused it (and may resume it).
        public var pausedByPolicy: Bool
        /// Whether the daemon lowered its volume.
        public var ducked: Bool
        /// Its session's mode: `spokenAudio` (a podcast or audiobook: a prompt pauses it instead
        /// of ducking it) or `default`; nil from a daemon older than issue 15.
        public var mode: String?
        /// Why it is in that mode (`rule line 3`, `genre 'Podcast'`); nil when nothing said so.
        public var modeReason: String?
        /// The audio server's sinks its streams play on now (empty: none known); nil where no
        /// server is followed. Where a sink it plays on goes away, it is paused.
        public var audibleOn: [String]?
        /// Its playback streams now, with the volume and mute the server reports (the user's
        /// per-app setting, or the daemon's duck or call mute while one holds); nil where no
        /// server is followed.
        public var streams: [PlayerStream]?

        public init(busName: String, owner: String, status: String, session: UInt64,
                    pausedByPolicy: Bool, ducked: Bool, mode: String? = nil, modeReason: String? = nil) {
            self.busName = busName
            self.owner = owner
            self.status = status
            self.session = session
            self.pausedByPolicy = pausedByPolicy
            self.ducked = ducked
            self.mode = mode
            self.modeReason = modeReason
        }
    }

    public var version = 1
    public var silentMode: Bool
    public var locked: Bool
    /// The system output volume, 0…1 (muted: 0); nil when no mixer is followed.
    public var outputVolume: Double?
    public var route: Route
    public var sessions: [Session]
    public var players: [Player]
    /// The audio server the daemon follows, connected or not (PolicyStatus+AudioServer.swift);
    /// nil from a daemon that follows none (older than issue 14), which also leaves out `streams`
    /// and `devices`: optional, so that a document without them still reads.
    public var audioServer: AudioServer?
    /// Every app's stream the server has now (empty while not connected).
    public var streams: [Stream]?
    /// Every sink and source the server has now (empty while not connected).
    public var devices: [Device]?
    /// The apps without our API seen on the audio server and their implicit sessions
    /// (PolicyStatus+Apps.swift); nil from a daemon older than issue 15.
    public var apps: [App]?
    /// The player the media keys, `mprisd control` and the headset act on now
    /// (PolicyStatus+ActivePlayer.swift); nil when no player is in an audio context (and from a
    /// daemon older than issue 16).
    public var activePlayer: ActivePlayer?
    /// Why the journal of changes to other programs cannot be written (the state directory is
    /// full or read-only); nil while it can. Until it can, the daemon pauses, ducks and mutes
    /// nothing, since nobody could undo such a change after a crash.
    public var journalProblem: String?

    public init(silentMode: Bool = false, locked: Bool = false, outputVolume: Double? = nil,
                route: Route = Route(), sessions: [Session] = [], players: [Player] = [],
                audioServer: AudioServer? = nil, streams: [Stream]? = nil, devices: [Device]? = nil,
                apps: [App]? = nil) {
        self.silentMode = silentMode
        self.locked = locked
        self.outputVolume = outputVolume
        self.route = route
        self.sessions = sessions
        self.players = players
        self.audioServer = audioServer
        self.streams = streams
        self.devices = devices
        self.apps = apps
    }
}
