/// What a decoder knows about a file before reading it.
public struct AudioFileInfo: Sendable, Hashable {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels per frame.
    public var channels: Int
    /// Total frames, as the container claims (libsndfile corrects it for a truncated WAV).
    public var frames: Int
    /// Whether `AudioFile.seek(toFrame:)` works (false for some streams).
    public var isSeekable: Bool
    /// The container, in libsndfile's words, e.g. `WAV (Microsoft)`, `FLAC (Free Lossless Audio Codec)`.
    public var formatName: String
    /// The encoding inside it, e.g. `Signed 16 bit PCM`, `Vorbis`.
    public var encodingName: String

    public init(sampleRate: Int, channels: Int, frames: Int, isSeekable: Bool,
                formatName: String, encodingName: String) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.frames = frames
        self.isSeekable = isSeekable
        self.formatName = formatName
        self.encodingName = encodingName
    }

    /// The length, nil when unknown: libsndfile's "unknown" (`Int64.max` frames for a stream it
    /// cannot measure), no frames, or a claim beyond `MediaTime.longestPlausibleLength`.
    public var length: Duration? {
        MediaTime.knownLength(frames: frames, sampleRate: sampleRate)
    }

    /// The length in seconds (`frames / sampleRate`); 0 for a file with no frames.
    public var duration: Double {
        sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0
    }
}
