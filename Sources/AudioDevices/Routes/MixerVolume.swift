import CALSA
import Posix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The output volume of a card, as its mixer shows it.
public struct OutputVolume: Sendable, Hashable, CustomStringConvertible {
    /// 0…1: the playback volume's channels averaged, over the element's range (not in dB).
    public var level: Double
    /// Every channel's playback switch is off.
    public var muted: Bool

    /// A volume.
    public init(level: Double, muted: Bool) {
        self.level = level
        self.muted = muted
    }

    public var description: String { "\(Int((level * 100).rounded()))%\(muted ? " muted" : "")" }
}

/// Follows the system volume of one ALSA control device (G-VOLUME): the simple mixer
/// element `Master`, or `PCM` when there is no `Master`, read as the session's output volume.
///
/// Opens the device's mixer (non-blocking), reads the volume, and starts one thread of its own that
/// sleeps in `poll()` on the mixer's descriptors (no timer); after each `snd_mixer_handle_events`
/// it reads the element again and reports a real change to `onChange`, on that thread.
///
/// It never writes the mixer: the volume belongs to the user (G-VOLUME).
public final class MixerVolume: Sendable {
    /// The control device's name, as given.
    public let control: String
    /// The simple element followed: `Master` or `PCM`.
    public let element: String

    private let state: VolumeState
    private let thread: PollThread

    /// The element names tried, in order.
    public static let elementNames = ["Master", "PCM"]

    /// Opens `control`'s mixer and starts following its volume. `onChange` runs on the thread of
    /// the `MixerVolume`; it must not block for long.
    /// - Throws: `ALSAControlError.deviceUnavailable` when there is no such control device,
    ///   `.noVolumeElement` when it has neither `Master` nor `PCM`.
    public init(control: String, onChange: @escaping @Sendable (OutputVolume) -> Void) throws(ALSAControlError) {
        self.control = control
        let (opened, code, operation, messages) = ALSAMixer.open(control)
        guard let mixer = opened else {
            let reason = ALSAErrorCapture.reason(code, messages)
            if operation == ALSAMixer.attachOperation { throw .deviceUnavailable(control: control, reason: reason) }
            throw .deviceFailed(control: control, operation: operation, reason: reason)
        }
        guard let name = Self.elementNames.first(where: { ALSAMixer.playbackElement(mixer, named: $0) != nil }),
              let found = ALSAMixer.playbackElement(mixer, named: name) else {
            ALSAMixer.close(mixer)
            throw .noVolumeElement(control: control)
        }
        element = name
        let reading = ALSAMixer.read(found)
        let state = VolumeState(OutputVolume(level: reading.level, muted: reading.muted))
        self.state = state

        let (descriptors, pollCode) = ALSAMixer.pollDescriptors(mixer)
        guard pollCode >= 0 else {
            ALSAMixer.close(mixer)
            throw .deviceFailed(control: control, operation: "getting its poll descriptors",
                                reason: String(cString: snd_strerror(pollCode)))
        }
        // From here on `mixer` belongs to the thread, which also closes it (`finish`).
        // A failing `poll` ends the thread as a vanished device does: no more changes are reported.
        do throws(PosixError) {
            thread = try PollThread(name: "mixer-volume", descriptors: descriptors, work: .init(handle: { ready in
                Self.handle(&ready, mixer: mixer, element: name, state: state, onChange: onChange)
            }, finish: { _ in
                ALSAMixer.close(mixer)
            }))
        } catch {
            // `finish` ran here, and closed the device.
            throw .threadFailed(control: control, reason: error.reason)
        }
    }

    deinit {
        thread.stop()
    }

    /// The volume now (as of the last event).
    public var current: OutputVolume {
        state.value.withLock { $0 }
    }

    /// Ends the thread and closes the mixer; no callback runs after this returns (unless called
    /// from a callback, which ends the thread once that callback returns).
    public func stop() {
        thread.stop()
    }

    /// One wake-up: let alsa-lib apply the events, read the element again (found again by name:
    /// events may have replaced it), report a real change.
    private static func handle(_ ready: inout [pollfd], mixer: OpaquePointer, element: String,
                               state: VolumeState, onChange: @Sendable (OutputVolume) -> Void) -> Bool {
        let revents = Int32(ALSAMixer.revents(mixer, &ready))
        if revents & Int32(POLLERR | POLLHUP | POLLNVAL) != 0 { return false }
        guard revents & Int32(POLLIN) != 0 else { return true }
        guard ALSAMixer.handleEvents(mixer) >= 0 else { return false }
        guard let found = ALSAMixer.playbackElement(mixer, named: element) else { return true }
        let reading = ALSAMixer.read(found)
        let volume = OutputVolume(level: reading.level, muted: reading.muted)
        let changed = state.value.withLock { known -> Bool in
            guard known != volume else { return false }
            known = volume
            return true
        }
        if changed { onChange(volume) }
        return true
    }
}

/// The last volume read, shared by the `MixerVolume` and its thread.
private final class VolumeState: Sendable {
    let value: Mutex<OutputVolume>
    init(_ initial: OutputVolume) { value = Mutex(initial) }
}
