import DBus
import RemoteControl

/// Everything the daemon ever asks of a foreign player. A player is someone else's program: the
/// policy may pause it, resume what it paused and lower its volume — nothing else (no Stop, no
/// seeking, no OpenUri, no Quit). Keeping the list closed here makes that a property of the type.
public enum ForeignPlayerCommand: Sendable, Hashable, CustomStringConvertible {
    case pause
    case play
    case setVolume(Double)

    /// The method call to `owner` (the player's unique name, so a call never reaches whoever
    /// takes the well-known name over in between).
    public func message(to owner: String) -> Message {
        switch self {
        case .pause:
            return .methodCall(destination: owner, path: MPRISNames.objectPath,
                               interface: MPRISNames.playerInterface, member: "Pause")
        case .play:
            return .methodCall(destination: owner, path: MPRISNames.objectPath,
                               interface: MPRISNames.playerInterface, member: "Play")
        case .setVolume(let volume):
            return .methodCall(destination: owner, path: MPRISNames.objectPath,
                               interface: StandardInterfaceName.properties, member: "Set",
                               body: [.string(MPRISNames.playerInterface), .string("Volume"),
                                      .variant(.double(volume))])
        }
    }

    /// The past tense for the log line ("paused org.mpris.MediaPlayer2.mpv: …").
    public var description: String {
        switch self {
        case .pause: "paused"
        case .play: "resumed"
        case .setVolume(let volume): "set volume \(Self.format(volume)) of"
        }
    }

    public static func format(_ volume: Double) -> String {
        let rounded = (volume * 1000).rounded() / 1000
        return "\(rounded)"
    }
}

/// The reads: the player's properties, and single ones (its volume just before a ducking, its
/// status after an interruption), asked of its unique name.
public enum ForeignPlayerQuery {
    /// `Properties.Get` of one property of the Player interface (`Volume`, `PlaybackStatus`).
    public static func property(_ name: String, of owner: String) -> Message {
        .methodCall(destination: owner, path: MPRISNames.objectPath,
                    interface: StandardInterfaceName.properties, member: "Get",
                    body: [.string(MPRISNames.playerInterface), .string(name)])
    }

    /// `Properties.Get` of the root interface's `Identity` ("VLC media player"), which a
    /// `player` rule may name (`AppRules.PlayerRule`).
    public static func identity(of owner: String) -> Message {
        .methodCall(destination: owner, path: MPRISNames.objectPath,
                    interface: StandardInterfaceName.properties, member: "Get",
                    body: [.string(MPRISNames.rootInterface), .string("Identity")])
    }

    public static func getAll(of owner: String) -> Message {
        .methodCall(destination: owner, path: MPRISNames.objectPath,
                    interface: StandardInterfaceName.properties, member: "GetAll",
                    body: [.string(MPRISNames.playerInterface)])
    }
}
