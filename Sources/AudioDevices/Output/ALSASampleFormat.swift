import CALSA

/// The sample formats `ALSAOutput` can feed a PCM, in the order it tries them.
public enum ALSASampleFormat: Sendable, Hashable, CustomStringConvertible {
    /// Signed 16 bit little-endian: what every device takes; floats are converted (× 32768).
    case s16LE
    /// 32-bit float little-endian: the samples as decoded, for devices (plug, pulse) that take it.
    case float32LE

    var alsa: snd_pcm_format_t {
        switch self {
        case .s16LE: return SND_PCM_FORMAT_S16_LE
        case .float32LE: return SND_PCM_FORMAT_FLOAT_LE
        }
    }

    var bytesPerSample: Int {
        switch self {
        case .s16LE: return 2
        case .float32LE: return 4
        }
    }

    public var description: String {
        switch self {
        case .s16LE: return "S16_LE"
        case .float32LE: return "FLOAT_LE"
        }
    }
}
