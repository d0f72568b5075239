/// One entry of the server's stream-restore database (`pa_ext_stream_restore_info`): what the
/// server applies to the next stream with that key — PulseAudio's module-stream-restore, or
/// WirePlumber's restore-stream behind pipewire-pulse.
public struct RestoreEntry: Sendable, Hashable {
    /// "sink-input-by-media-role:music", "source-output-by-application-name:Zoom"…
    public var key: String
    /// nil: no volume saved.
    public var volume: ChannelVolume?
    public var isMuted: Bool
    /// The device saved for the key (PulseAudio only; nil: none).
    public var device: String?

    public init(key: String, volume: ChannelVolume? = nil, isMuted: Bool = false, device: String? = nil) {
        self.key = key
        self.volume = volume
        self.isMuted = isMuted
        self.device = device
    }
}

/// Why a request to the server failed.
public struct AudioServerError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

extension AudioStream {
    /// The key under which the server's restore database keeps this stream's volume and mute,
    /// computed the way both servers do (PulseAudio's module-stream-restore `get_name`, which
    /// pipewire-pulse copies): the `module-stream-restore.id` property if the stream has one (both
    /// servers set it on every stream), else by `media.role`, `application.id`,
    /// `application.name`, `media.name`, in that order; nil when it has none of them.
    public var restoreKey: String? {
        if let id = properties["module-stream-restore.id"], !id.isEmpty { return id }
        let prefix = id.direction == .playback ? "sink-input" : "source-output"
        for (property, kind) in [("media.role", "media-role"), ("application.id", "application-id"),
                                 ("application.name", "application-name"), ("media.name", "media-name")] {
            if let value = properties[property], !value.isEmpty { return "\(prefix)-by-\(kind):\(value)" }
        }
        return nil
    }
}
