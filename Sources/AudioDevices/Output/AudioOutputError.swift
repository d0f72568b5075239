/// Why an output could not do what was asked; `description` is a complete line for stderr.
public enum AudioOutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device cannot be opened (no such PCM, no sound card, busy); `reason` is alsa-lib's text.
    case deviceUnavailable(device: String, reason: String)
    /// The device refuses this rate and channel count in every sample format tried.
    case formatUnsupported(device: String, format: StreamFormat, reason: String)
    /// A call on an open device failed and could not be recovered.
    case deviceFailed(device: String, operation: String, reason: String)
    /// `write` before `open` (or after `close`).
    case notOpen(device: String)
    /// `write` while paused.
    case paused(device: String)
    /// A buffer that is not a whole number of frames.
    case invalidBuffer(device: String, samples: Int, channels: Int)

    public var description: String {
        switch self {
        case .deviceUnavailable(let device, let reason):
            return "audio output \(device): cannot open: \(reason)"
        case .formatUnsupported(let device, let format, let reason):
            return "audio output \(device): does not accept \(format): \(reason)"
        case .deviceFailed(let device, let operation, let reason):
            return "audio output \(device): \(operation) failed: \(reason)"
        case .notOpen(let device):
            return "audio output \(device): not open"
        case .paused(let device):
            return "audio output \(device): paused, resume before writing"
        case .invalidBuffer(let device, let samples, let channels):
            return "audio output \(device): \(samples) samples are not whole frames of \(channels) channels"
        }
    }
}
