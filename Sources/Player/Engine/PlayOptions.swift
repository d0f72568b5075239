/// What `mprisd play` was asked to do.
public struct PlayOptions: Sendable {
    /// The ALSA PCM; nil: `default`, falling back to the silent output with a notice.
    public var device: String?
    /// The ALSA control device for jacks and volume.
    public var control: String?
    /// The MPRIS name suffix: `org.mpris.MediaPlayer2.<name>`.
    public var name = "mprisd"
    /// The relative volume, 0…1 (G-VOLUME: applied as a gain, never the mixer).
    public var volume = 1.0
    public var loop = LoopMode.none
    public var shuffle = false
    /// Files and folders, as given.
    public var paths: [String] = []

    public init() {}
}
