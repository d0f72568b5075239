import Foundation

/// A playback stream as `pactl -f json list sink-inputs` shows it: what a test checks after the
/// daemon acted (volume, mute) without parsing pactl's JSON itself.
public struct SinkInputInfo: Sendable, Equatable {
    public let index: Int
    /// The sink it plays on (its index).
    public let sink: Int
    public let muted: Bool
    public let corked: Bool
    /// Each channel's volume as the server stores it (0x10000 = 100 %), by channel name.
    public let channelVolumes: [String: Int]
    /// String-valued properties (media.role, application.name, `TestStream.idProperty`, …).
    public let properties: [String: String]

    /// The loudest channel's volume in percent of 100 % (pactl's own rounding: 30 % is 19660 of
    /// 65536, 29.999…, reported as 30).
    public var volumePercent: Int {
        Int((Double(channelVolumes.values.max() ?? 0) * 100 / 65_536).rounded())
    }

    /// The stream's `TestStream.idProperty`, if it is a test stream.
    public var testID: String? { properties[TestStream.idProperty] }

    init?(_ entry: [String: Any]) {
        guard let index = (entry["index"] as? NSNumber)?.intValue else { return nil }
        self.index = index
        sink = (entry["sink"] as? NSNumber)?.intValue ?? -1
        muted = entry["mute"] as? Bool ?? false
        corked = entry["corked"] as? Bool ?? false
        var volumes: [String: Int] = [:]
        for (channel, value) in entry["volume"] as? [String: Any] ?? [:] {
            if let raw = ((value as? [String: Any])?["value"] as? NSNumber)?.intValue { volumes[channel] = raw }
        }
        channelVolumes = volumes
        properties = (entry["properties"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }
}

extension TestAudioServer {
    /// Every playback stream the server has now.
    public func sinkInputs() async throws -> [SinkInputInfo] {
        try await list("sink-inputs").compactMap(SinkInputInfo.init)
    }
}

extension PlayingStream {
    /// This stream as the server shows it now; nil once it is gone.
    public func info() async throws -> SinkInputInfo? {
        try await entry().flatMap(SinkInputInfo.init)
    }
}
