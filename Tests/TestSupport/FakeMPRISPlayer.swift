import DBus
import Synchronization

/// An MPRIS player the test exports itself, on a connection of its own: the one in-process fake
/// player of the tests (a separate process is `Tests/Fixtures/FakePlayer/fake_player.py`). What a
/// test needs of it is said once, in `Options`: how it answers the controls (faithfully, or
/// toggling on `Pause` as tidal-hifi#800 did), whether it has a `Volume` and whether that reads back
/// what was written, an `Identity`, and the complete interface with metadata that mpris-proxy
/// reads. Every method called is recorded (`calls`), every `Volume` written (`volumeWrites`), every
/// read of `PlaybackStatus` by others counted (`statusReads`).
public final class FakeMPRISPlayer: Sendable {
    /// How the controls change `PlaybackStatus`.
    public enum Controls: Sendable {
        /// Play plays, Pause pauses, Stop stops, PlayPause toggles; Next and Previous change nothing.
        case faithful
        /// Pause toggles like PlayPause (tidal-hifi#800): a second Pause starts it again.
        case toggleOnPause
    }

    /// Its `Volume` property.
    public enum Volume: Sendable {
        /// None (a player without one, or that says it does not support it).
        case absent
        /// Reads back what was written, starting at the value.
        case honest(Double)
        /// Always reads the value; writes are recorded and ignored (Spotify).
        case ignored(Double)
    }

    public struct Options: Sendable {
        public var status: String
        public var controls: Controls
        public var volume: Volume
        /// `Identity` of the root interface, of whatever type (a hostile player's need not be a
        /// string); nil: no root interface (unless `complete`).
        public var identity: DBusValue?
        /// Every property of both interfaces, with a track's metadata, as mpris-proxy reads them.
        public var complete: Bool

        public init(status: String = "Stopped", controls: Controls = .faithful, volume: Volume = .absent,
                    identity: DBusValue? = nil, complete: Bool = false) {
            self.status = status
            self.controls = controls
            self.volume = volume
            self.identity = identity
            self.complete = complete
        }
    }

    public static let path = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    public let connection: Connection
    public let busName: String
    /// Every method called, in order (`Play`, `Pause`, `Seek`, `Raise`, …).
    public let calls = EventRecord<String>()
    /// Every property written, by name, in order (`Volume`, and with `complete` `LoopStatus`,
    /// `Rate`, `Shuffle`): whatever the value, and whether or not it is kept.
    public let propertyWrites = EventRecord<String>()
    private let state: Mutex<State>
    private let object = Mutex<ExportedObject?>(nil)

    private struct State {
        var status: String
        var volume: Double
        var volumeWrites: [Double] = []
        var reads = 0
        var seeded = 0
    }

    public var status: String { state.withLock { $0.status } }
    /// What was written to `Volume`, in order.
    public var volumeWrites: [Double] { state.withLock { $0.volumeWrites } }
    /// Reads of `PlaybackStatus` by others (the export's own first read left out).
    public var statusReads: Int { state.withLock { $0.reads - $0.seeded } }

    private init(connection: Connection, busName: String, options: Options) {
        self.connection = connection
        self.busName = busName
        let volume: Double = switch options.volume {
        case .absent: 1
        case .honest(let value), .ignored(let value): value
        }
        state = Mutex(State(status: options.status, volume: volume))
    }

    /// Exports the player on `connection`, then asks for `org.mpris.MediaPlayer2.NAME` (so whoever
    /// sees the name can read it at once).
    public static func start(on connection: Connection, name: String, _ options: Options = Options()) async throws -> FakeMPRISPlayer {
        let player = FakeMPRISPlayer(connection: connection, busName: "org.mpris.MediaPlayer2." + name, options: options)
        let exported = try connection.export(try ObjectPath(path), interfaces: try player.interfaces(options))
        player.object.withLock { $0 = exported }
        // The export's own read runs on the connection's loop; a round trip comes after it, and
        // nobody else can have read the player before it has its name.
        _ = try await connection.call(destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus"),
                                      interface: "org.freedesktop.DBus", member: "GetId", [], timeout: .seconds(5))
        player.state.withLock { $0.seeded = $0.reads }
        _ = try await connection.requestName(player.busName)
        return player
    }

    /// Sets `PlaybackStatus` and announces it, as a player does when the user acts in it.
    public func set(_ status: String) {
        state.withLock { $0.status = status }
        object.withLock { $0 }?.propertiesChanged(Self.playerInterface, ["PlaybackStatus"])
    }

    /// Sets `Volume` (one it has) and announces it, as a player does when the user turns it.
    public func setVolume(_ volume: Double) {
        state.withLock { $0.volume = volume }
        object.withLock { $0 }?.propertiesChanged(Self.playerInterface, ["Volume"])
    }

    /// Announces a jump to `position` (µs), as a player does after the user seeks.
    public func seek(to position: Int64) throws {
        try object.withLock { $0 }?.emit(Self.playerInterface, "Seeked", [.int64(position)])
    }

    // MARK: The interfaces

    private func interfaces(_ options: Options) throws -> [Interface] {
        var interfaces: [Interface] = []
        if options.complete || options.identity != nil { interfaces.append(root(options)) }
        interfaces.append(try player(options))
        return interfaces
    }

    private func root(_ options: Options) -> Interface {
        let identity = options.identity ?? .string("Fake Player")
        var properties = [Self.constant("Identity", identity.type, identity)]
        var methods: [DBus.Method] = []
        if options.complete {
            methods = ["Raise", "Quit"].map { member in .immediate(member) { [calls] _ in calls.append(member); return [] } }
            properties += [
                Self.constant("DesktopEntry", .string, .string("mprisd")),
                Self.constant("CanQuit", .boolean, .boolean(false)),
                Self.constant("CanRaise", .boolean, .boolean(false)),
                Self.constant("HasTrackList", .boolean, .boolean(false)),
                Self.constant("SupportedUriSchemes", .array(.string), .array(element: .string, [])),
                Self.constant("SupportedMimeTypes", .array(.string), .array(element: .string, [])),
            ]
        }
        return Interface("org.mpris.MediaPlayer2", methods: methods, properties: properties)
    }

    private func player(_ options: Options) throws -> Interface {
        let controls = ["Play", "Pause", "PlayPause", "Stop", "Next", "Previous"].map { member in
            DBus.Method.immediate(member) { [weak self] _ in
                self?.control(member, options.controls)
                return []
            }
        }
        let recorded: [DBus.Method] = [
            .immediate("Seek", inputs: [Argument("Offset", .int64)]) { [calls] _ in calls.append("Seek"); return [] },
            .immediate("SetPosition", inputs: [Argument("TrackId", .objectPath), Argument("Position", .int64)]) { [calls] _ in
                calls.append("SetPosition")
                return []
            },
            .immediate("OpenUri", inputs: [Argument("Uri", .string)]) { [calls] _ in calls.append("OpenUri"); return [] },
        ]
        var properties = [
            Property("PlaybackStatus", .string) { [weak self] in
                guard let self else { return .string("Stopped") }
                return .string(state.withLock { state in
                    state.reads += 1
                    return state.status
                })
            },
            Self.constant("CanControl", .boolean, .boolean(true)),
            Self.constant("CanPlay", .boolean, .boolean(true)),
            Self.constant("CanPause", .boolean, .boolean(true)),
        ]
        switch options.volume {
        case .absent: break
        case .honest, .ignored:
            let honest = if case .honest = options.volume { true } else { false }
            properties.append(Property("Volume", .double, get: { [weak self] in
                .double(self?.state.withLock { $0.volume } ?? 0)
            }, set: { [weak self] value in
                self?.propertyWrites.append("Volume")
                guard case .double(let volume) = value else { return }
                self?.state.withLock { state in
                    state.volumeWrites.append(volume)
                    if honest { state.volume = volume }
                }
            }))
        }
        if options.complete {
            let metadata = DBusValue.dictionary(key: .string, value: .variant, [
                DictionaryEntry(.string("mpris:trackid"), .variant(.objectPath(try ObjectPath("/org/mprisd/track/1")))),
                DictionaryEntry(.string("mpris:length"), .variant(.int64(180_000_000))),
                DictionaryEntry(.string("xesam:title"), .variant(.string("Harness Song"))),
                DictionaryEntry(.string("xesam:artist"), .variant(.array(element: .string, [.string("Harness Band")]))),
                DictionaryEntry(.string("xesam:album"), .variant(.string("Harness Album"))),
            ])
            let writes = propertyWrites
            func writable(_ name: String, _ type: DBusType, _ value: DBusValue) -> Property {
                Property(name, type, get: { value }, set: { _ in writes.append(name) })
            }
            properties += [
                writable("LoopStatus", .string, .string("None")),
                writable("Rate", .double, .double(1)),
                Self.constant("MinimumRate", .double, .double(1)),
                Self.constant("MaximumRate", .double, .double(1)),
                writable("Shuffle", .boolean, .boolean(false)),
                Self.constant("Metadata", .dictionary(key: .string, value: .variant), metadata),
                Property("Position", .int64, changeSignal: .none, get: { .int64(1_500_000) }),
            ] + ["CanGoNext", "CanGoPrevious", "CanSeek"].map { Self.constant($0, .boolean, .boolean(true)) }
            if case .absent = options.volume { properties.append(Self.constant("Volume", .double, .double(1))) }
        }
        return Interface(Self.playerInterface, methods: controls + recorded, properties: properties,
                         signals: [SignalDescription("Seeked", [Argument("Position", .int64)])])
    }

    private static func constant(_ name: String, _ type: DBusType, _ value: DBusValue) -> Property {
        Property(name, type, changeSignal: .constant, get: { value })
    }

    /// A control arrived: recorded, then `PlaybackStatus` follows and is announced.
    private func control(_ member: String, _ controls: Controls) {
        calls.append(member)
        state.withLock { state in
            let playing = state.status == "Playing"
            switch (member, controls) {
            case ("Play", _): state.status = "Playing"
            case ("Pause", .faithful): state.status = "Paused"
            case ("Pause", .toggleOnPause), ("PlayPause", _): state.status = playing ? "Paused" : "Playing"
            case ("Stop", _): state.status = "Stopped"
            default: break
            }
        }
        object.withLock { $0 }?.propertiesChanged(Self.playerInterface, ["PlaybackStatus"])
    }
}
