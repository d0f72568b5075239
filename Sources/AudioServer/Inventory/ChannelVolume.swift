/// A stream's or device's volume as the server holds it: one `pa_volume_t` per channel
/// (`PA_VOLUME_NORM` = 0x10000 is 100 %, the server's software scale is cubic).
///
/// Kept raw so that a volume read and written back is exactly the user's value: a duck restores
/// these channel values, not an average recomputed from them.
public struct ChannelVolume: Sendable, Hashable, CustomStringConvertible {
    /// `PA_VOLUME_NORM`.
    public static let norm: UInt32 = 0x10000
    /// `PA_VOLUME_MAX` (`UINT32_MAX / 2`; a volume above it is not valid).
    public static let max: UInt32 = UInt32.max / 2

    /// One raw value per channel, in the stream's channel order.
    public var channels: [UInt32]

    public init(channels: [UInt32]) {
        self.channels = channels
    }

    /// The same value on `count` channels.
    public init(uniform value: UInt32, count: Int) {
        channels = Array(repeating: value, count: Swift.max(count, 1))
    }

    /// The loudest channel as a fraction of 100 % (1.0 = norm), as volume sliders show it.
    public var level: Double {
        Double(channels.max() ?? 0) / Double(Self.norm)
    }

    /// Every channel multiplied by `ratio` on the server's scale (0…1 keeps the balance between
    /// channels), clamped to the valid range.
    public func scaled(by ratio: Double) -> ChannelVolume {
        let factor = Swift.min(Swift.max(ratio.isFinite ? ratio : 1, 0), 1)
        return ChannelVolume(channels: channels.map { UInt32((Double($0) * factor).rounded()) })
    }

    public var description: String {
        let percent = (level * 100).rounded()
        return "\(Int(percent))%"
    }
}
