import AudioServer
import Foundation

/// What the server's restore database files a playback stream's volume and mute under:
/// PulseAudio's module-stream-restore uses `sink-input-by-media-role:ROLE` when the stream has a
/// role, else its application id or name; WirePlumber's restore-stream keys by `media.role` first,
/// then by application name. Roles are matched without regard to case (PipeWire renames
/// `music` to `Music`).
///
/// Used to repair the next stream of a key when a stream we ducked or muted ended before we
/// could undo it: the database kept our value for that key.
public struct StreamRestoreKey: Sendable, Hashable, CustomStringConvertible {
    /// `role:music`, `app:Firefox`, `media:…`: no spaces once encoded.
    public let value: String

    public init(value: String) {
        self.value = value
    }

    /// The key of `stream`; nil when it has neither role, application name nor media name.
    public init?(_ stream: AudioStream) {
        if let role = stream.role, !role.isEmpty {
            value = "role:" + role.lowercased()
        } else if let id = stream.properties["application.id"], !id.isEmpty {
            value = "appid:" + id
        } else if let name = stream.applicationName, !name.isEmpty {
            value = "app:" + name
        } else if let name = stream.mediaName, !name.isEmpty {
            value = "media:" + name
        } else {
            return nil
        }
    }

    /// For a stream with nothing to key it by: never matched against another stream.
    public static let none = StreamRestoreKey(value: "none")

    /// Whether another stream can share it (the database files them together).
    public var isShared: Bool { self != .none }

    /// Percent-encoded: one journal field.
    var encoded: String {
        value.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? "-"
    }

    init?(encoded: Substring) {
        guard let decoded = String(encoded).removingPercentEncoding, !decoded.isEmpty,
              decoded.count <= 512 else { return nil }
        value = decoded
    }

    private static let plain = CharacterSet(charactersIn:
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:._-")

    public var description: String { value }
}
