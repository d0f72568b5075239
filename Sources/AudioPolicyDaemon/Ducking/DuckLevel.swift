import AudioServer

/// A volume a duck lowers and later gives back: a player's MPRIS `Volume` (1.0 is 100 %) or an
/// audio-server stream's volume (per channel, on the server's cubic scale). Each says how it is
/// lowered and what its keeper rounds away, so that `VolumeDuck` has one rule for both.
protocol DuckLevel: Sendable, Hashable {
    /// This volume × `ratio`, on its own scale.
    func scaled(by ratio: Double) -> Self
    /// Equal to `other` up to what its keeper's storage rounds away.
    func isSame(as other: Self) -> Bool
}

extension Double: DuckLevel {
    func scaled(by ratio: Double) -> Double { self * ratio }

    /// Within 0.0005: mpv keeps `Volume` as a float percentage.
    func isSame(as other: Double) -> Bool { abs(self - other) < 0.0005 }
}

extension ChannelVolume: DuckLevel {
    /// Within 1/1000 of 100 % on every channel: PipeWire stores volumes as floats.
    func isSame(as other: ChannelVolume) -> Bool {
        guard channels.count == other.channels.count else { return abs(level - other.level) < 0.001 }
        return zip(channels, other.channels).allSatisfy { (x: UInt32, y: UInt32) in
            (x > y ? x - y : y - x) <= ChannelVolume.norm / 1000
        }
    }
}
