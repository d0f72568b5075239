/// Picks the sink for `mprisd play --device PCM`.
public enum OutputSelection {
    /// The device name that selects `SilentOutput` explicitly (`--device null`).
    public static let silentDevice = "null"
    /// ALSA's default PCM, used when no device is given.
    public static let defaultDevice = "default"

    /// The chosen sink, and a notice the player must print visibly when it fell back to silence.
    public struct Choice {
        public let sink: any AudioSink
        /// `nil` unless the default device could not be opened and the silent output stands in.
        public let notice: String?
    }

    /// - `nil` or `"default"`: ALSA `default`; if it cannot be opened (no sound card), a
    ///   `SilentOutput` and a notice saying so and why.
    /// - `"null"`: a `SilentOutput`, no notice (asked for).
    /// - any other name: that ALSA PCM, and its error if it cannot be opened (asked for by name, so
    ///   silence would hide a mistake).
    public static func choose(device: String?) throws(AudioOutputError) -> Choice {
        let name = device ?? defaultDevice
        if name == silentDevice {
            return Choice(sink: SilentOutput(), notice: nil)
        }
        do {
            return Choice(sink: try ALSAOutput(device: name), notice: nil)
        } catch {
            guard name == defaultDevice else { throw error }
            return Choice(sink: SilentOutput(),
                          notice: "no sound output (\(error)); playing through the built-in silent output")
        }
    }
}
