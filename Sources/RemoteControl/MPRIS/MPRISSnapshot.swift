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

    /// The announced (`EmitsChangedSignal` true) properties of the Player interface by name.
    /// `Position` is absent: it is computed on `Get` and never signalled; `CanControl` is constant.
    var playerProperties: [String: DBusValue] {
        [
            "PlaybackStatus": .string(playbackStatus),
            "LoopStatus": .string(info.repeatMode.loopStatus),
            "Rate": .double(info.rate),
            "Shuffle": .boolean(info.shuffle),
            "Metadata": metadata,
            "Volume": .double(info.volume),
            "MinimumRate": .double(info.minimumRate),
            "MaximumRate": .double(info.maximumRate),
            "CanGoNext": .boolean(can(.nextTrack)),
            "CanGoPrevious": .boolean(can(.previousTrack)),
            "CanPlay": .boolean(can(.play)),
            "CanPause": .boolean(can(.pause)),
            "CanSeek": .boolean(canSeek),
        ]
    }

    // MARK: org.mpris.MediaPlayer2

    var rootProperties: [String: DBusValue] {
        ["CanQuit": .boolean(can(.quit)), "CanRaise": .boolean(can(.raise))]
    }

    /// The announced values of both interfaces.
    struct Values: Sendable, Hashable {
        var player: [String: DBusValue]
        var root: [String: DBusValue]
    }

    var values: Values { Values(player: playerProperties, root: rootProperties) }

    /// Names whose value differs between two property maps.
    static func changed(_ old: [String: DBusValue], _ new: [String: DBusValue]) -> [String] {
        new.keys.filter { old[$0] != new[$0] }.sorted()
    }
}
