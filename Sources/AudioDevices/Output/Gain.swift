/// The player's relative volume (MPRIS `Volume`, `--volume`), applied to samples before they reach
/// a sink. Never the mixer: the system volume belongs to the user (G-VOLUME).
public enum Gain {
    /// Multiplies every sample by `volume`, clamped to 0…1 (a linear gain; NaN counts as 0).
    /// A volume of 1 leaves the buffer untouched.
    public static func apply(_ volume: Double, to samples: UnsafeMutableBufferPointer<Float>) {
        let factor = clamped(volume)
        guard factor < 1 else { return }
        for index in samples.indices {
            samples[index] *= factor
        }
    }

    /// `volume` as the factor `apply` uses.
    public static func clamped(_ volume: Double) -> Float {
        guard volume.isFinite, volume > 0 else { return 0 }
        return Float(min(volume, 1))
    }
}
