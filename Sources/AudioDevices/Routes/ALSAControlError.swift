/// Why a control device (jacks, mixer) could not be followed; `description` is a complete line for
/// stderr.
public enum ALSAControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No control device of that name (no such card, no such `ctl.NAME` in the configuration);
    /// `reason` is alsa-lib's text.
    case deviceUnavailable(control: String, reason: String)
    /// The card has neither a `Master` nor a `PCM` playback volume.
    case noVolumeElement(control: String)
    /// A call on the open device failed.
    case deviceFailed(control: String, operation: String, reason: String)
    /// The watching thread could not be started.
    case threadFailed(control: String, reason: String)

    public var description: String {
        switch self {
        case .deviceUnavailable(let control, let reason):
            return "control device \(control): cannot open: \(reason)"
        case .noVolumeElement(let control):
            return "control device \(control): has no Master or PCM playback volume"
        case .deviceFailed(let control, let operation, let reason):
            return "control device \(control): \(operation) failed: \(reason)"
        case .threadFailed(let control, let reason):
            return "control device \(control): cannot start its watching thread: \(reason)"
        }
    }
}
