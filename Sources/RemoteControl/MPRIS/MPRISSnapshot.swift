import DBus

/// What the MPRIS object shows at one moment: the getters read it, and two snapshots compared give
/// the properties to announce in one `PropertiesChanged` per interface (values only, de-duplicated).
///
/// Outside the audio context the snapshot is "stopped": `PlaybackStatus` `Stopped`, empty
/// `Metadata`, every `Can*` but `CanControl` false (the endpoint is inert; design "MPRIS endpoint").
struct MPRISSnapshot: Sendable, Hashable {
    /// In the audio context (the name is wanted).
    var inContext = false
    var info = NowPlayingInfo()
    /// The `mpris:trackid` of `info.item`.
    var trackPath: ObjectPath?
    /// Commands enabled and handled.
    var commands: Set<RemoteCommand> = []
    /// The attached session is interrupted: report `Paused` even if the app still says playing.
    var sessionInterrupted = false

    /// Whether a command acts now: in the context and available.
    func can(_ command: RemoteCommand) -> Bool { inContext && commands.contains(command) }

    /// The state remote controls see (`interrupted` shows as paused).
    var effectiveState: PlaybackState {
        guard inContext else { return .stopped }
        if info.playbackState == .playing && sessionInterrupted { return .interrupted }
        return info.playbackState
    }

    /// The position now, in the effective state (no extrapolation while paused or interrupted).
    func position(at instant: MonotonicInstant = .now) -> Duration {
        guard inContext else { return .zero }
        var info = self.info
        info.playbackState = effectiveState
        return info.position(at: instant)
    }

    // MARK: org.mpris.MediaPlayer2.Player

    var playbackStatus: String {
        switch effectiveState {
        case .playing: "Playing"
        case .paused, .interrupted: "Paused"
        case .stopped: "Stopped"
        }
    }

    /// `CanSeek`: `Seek` and `SetPosition` act (through `seek` or `changePlaybackPosition`).
    var canSeek: Bool { can(.seek) || can(.changePlaybackPosition) }

    /// `Metadata` (`a{sv}`) with the spec's types: `mpris:trackid` `o`, `mpris:length` `x` (µs),
    /// list-valued xesam keys `as`, `xesam:trackNumber` `i`. Empty outside the audio context.
    var metadata: DBusValue {
        var entries: [DictionaryEntry] = []
        func add(_ key: String, _ value: DBusValue) {
            entries.append(DictionaryEntry(.string(key), .variant(value)))
        }
        if inContext, let item = info.item, let trackPath {
            add("mpris:trackid", .objectPath(trackPath))
            if let duration = item.duration { add("mpris:length", .int64(duration.microseconds)) }
            if let art = item.artURL { add("mpris:artUrl", .string(art)) }
            if let title = item.title { add("xesam:title", .string(title)) }
            if !item.artists.isEmpty { add("xesam:artist", item.artists.dbusValue) }
            if let album = item.album { add("xesam:album", .string(album)) }
            if !item.albumArtists.isEmpty { add("xesam:albumArtist", item.albumArtists.dbusValue) }
            if let number = item.trackNumber { add("xesam:trackNumber", .int32(Int32(clamping: number))) }
            if let url = item.url { add("xesam:url", .string(url)) }
        }
        return .dictionary(key: .string, value: .variant, entries)
    }

    /// The value of an announced property in this snapshot.
    func value(of property: AnnouncedProperty) -> DBusValue {
        switch property {
        case .playbackStatus: .string(playbackStatus)
        case .loopStatus: .string(info.repeatMode.loopStatus)
        case .rate: .double(info.rate)
        case .shuffle: .boolean(info.shuffle)
        case .metadata: metadata
        case .volume: .double(info.volume)
        case .minimumRate: .double(info.minimumRate)
        case .maximumRate: .double(info.maximumRate)
        case .canGoNext: .boolean(can(.nextTrack))
        case .canGoPrevious: .boolean(can(.previousTrack))
        case .canPlay: .boolean(can(.play))
        case .canPause: .boolean(can(.pause))
        case .canSeek: .boolean(canSeek)
        case .canQuit: .boolean(can(.quit))
        case .canRaise: .boolean(can(.raise))
        }
    }

    /// The announced values of both interfaces, in `AnnouncedProperty` order.
    struct Values: Sendable, Hashable {
        fileprivate(set) var items: [DBusValue]

        subscript(_ property: AnnouncedProperty) -> DBusValue { items[property.rawValue] }
    }

    var values: Values { Values(items: AnnouncedProperty.allCases.map { value(of: $0) }) }

    /// Names whose value differs between two sets of values, per interface, sorted.
    static func changed(_ old: Values, _ new: Values) -> (player: [String], root: [String]) {
        var player: [String] = []
        var root: [String] = []
        for property in AnnouncedProperty.allCases where old[property] != new[property] {
            if property.isRoot { root.append(property.name) } else { player.append(property.name) }
        }
        return (player.sorted(), root.sorted())
    }
}

/// The properties announced with their values (`EmitsChangedSignal` true), in a fixed order: a
/// getter reads its value by position, not by hashing its name, once per property of a `GetAll`.
/// `Position` is absent (computed on `Get`, never signalled), as are the constants.
enum AnnouncedProperty: Int, CaseIterable, Sendable {
    case playbackStatus, loopStatus, rate, shuffle, metadata, volume, minimumRate, maximumRate
    case canGoNext, canGoPrevious, canPlay, canPause, canSeek
    /// `org.mpris.MediaPlayer2`'s two.
    case canQuit, canRaise

    var name: String {
        switch self {
        case .playbackStatus: "PlaybackStatus"
        case .loopStatus: "LoopStatus"
        case .rate: "Rate"
        case .shuffle: "Shuffle"
        case .metadata: "Metadata"
        case .volume: "Volume"
        case .minimumRate: "MinimumRate"
        case .maximumRate: "MaximumRate"
        case .canGoNext: "CanGoNext"
        case .canGoPrevious: "CanGoPrevious"
        case .canPlay: "CanPlay"
        case .canPause: "CanPause"
        case .canSeek: "CanSeek"
        case .canQuit: "CanQuit"
        case .canRaise: "CanRaise"
        }
    }

    /// The declared D-Bus type (MPRIS 2.2).
    var type: DBusType {
        switch self {
        case .playbackStatus, .loopStatus: .string
        case .rate, .volume, .minimumRate, .maximumRate: .double
        case .metadata: .dictionary(key: .string, value: .variant)
        case .shuffle, .canGoNext, .canGoPrevious, .canPlay, .canPause, .canSeek, .canQuit, .canRaise: .boolean
        }
    }

    /// Declared by `org.mpris.MediaPlayer2` rather than its `Player` interface.
    var isRoot: Bool { self == .canQuit || self == .canRaise }
}
