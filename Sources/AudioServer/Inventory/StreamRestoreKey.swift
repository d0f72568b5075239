
/// What the server's restore database files a playback stream's volume and mute under — the key
/// both servers compute (`AudioStream.restoreKey`: `module-stream-restore.id`, else
/// `sink-input-by-media-role:ROLE`, by application id, name or media name). Compared without
/// regard to case: pipewire-pulse hands roles to WirePlumber renamed (`music` → `Music`).
///
/// Used to repair what the database kept of a stream that ended while we had it ducked or muted:
/// the entry itself (`writeRestoreEntry`), else the next stream of that key.
public struct StreamRestoreKey: Sendable, Hashable, CustomStringConvertible {
    /// The server's key, as it spells it.
    public let value: String

    public init(value: String) {
        self.value = value
    }

    /// The key of `stream`; nil when it has neither role, application nor media name.
    public init?(_ stream: AudioStream) {
        guard let key = stream.restoreKey, !key.isEmpty else { return nil }
        value = key
    }

    /// For a stream with nothing to key it by: never matched against another stream.
    public static let none = StreamRestoreKey(value: "none")

    /// Whether another stream can share it (the database files them together).
    public var isShared: Bool { self != .none }

    public static func == (lhs: StreamRestoreKey, rhs: StreamRestoreKey) -> Bool {
        lhs.value.lowercased() == rhs.value.lowercased()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value.lowercased())
    }

    public var description: String { value }
}
