import CLazyLibraries
import Synchronization

/// WirePlumber's own pause on device loss: `linking.pause-playback` (WirePlumber ≥ 0.5.11, on by
/// default), under which WirePlumber sends MPRIS `Pause` to the players whose streams were linked
/// to an output device node that goes away — the same moment the daemon would pause them, 0.03–6 ms
/// apart, and a player whose Pause toggles would play on after two. The daemon asks the server
/// which it is, from WirePlumber's `sm-settings` metadata (which libpipewire reads and
/// pipewire-pulse does not show): `mprisd_wireplumber_settings_*`, libpipewire loaded on first use.
///
/// Started when the audio-server link reaches a PipeWire server, stopped when it goes; idle, its
/// thread sleeps in epoll with nothing armed.
public final class WirePlumberSettings: Sendable {
    /// What the server says of `linking.pause-playback`.
    public enum PausePlayback: String, Sendable, Hashable {
        /// Not followed, or not read yet.
        case unknown
        case on
        case off
        /// Read and not there: no WirePlumber 0.5 (Debian 12's 0.4 has no `sm-settings`), one
        /// older than 0.5.11, or WirePlumber gone.
        case absent

        init(_ value: Int32) {
            switch value {
            case Int32(MPRISD_SETTING_ON): self = .on
            case Int32(MPRISD_SETTING_OFF): self = .off
            case Int32(MPRISD_SETTING_ABSENT): self = .absent
            default: self = .unknown
            }
        }
    }

    /// Reached from the watcher's thread through an unmanaged reference held for as long as a
    /// watcher runs (released after `mprisd_wireplumber_settings_stop` joined that thread).
    private final class Listener: Sendable {
        let value = Mutex(PausePlayback.unknown)
        let onChange: @Sendable (PausePlayback) -> Void

        init(onChange: @escaping @Sendable (PausePlayback) -> Void) {
            self.onChange = onChange
        }

        func changed(_ new: PausePlayback) {
            let changed = value.withLock { value in
                defer { value = new }
                return value != new
            }
            if changed { onChange(new) }
        }
    }

    private let listener: Listener
    /// The running watcher (`struct mprisd_wireplumber_settings *` as a bit pattern), if any.
    private let watcher = Mutex<UInt?>(nil)

    /// `onChange` gets each change of the setting, on the watcher's thread (it must not call
    /// `start` or `stop`).
    public init(onChange: @escaping @Sendable (PausePlayback) -> Void = { _ in }) {
        listener = Listener(onChange: onChange)
    }

    deinit { stop() }

    /// The setting now.
    public var pausePlayback: PausePlayback { listener.value.withLock { $0 } }

    /// Follows the setting on the PipeWire server of this process's environment (a running watcher
    /// is stopped first); nil once started, else why not (no libpipewire, no PipeWire server).
    @discardableResult
    public func start() -> String? {
        stop()
        let context = Unmanaged.passRetained(listener)
        var error: UnsafePointer<CChar>?
        let started = mprisd_wireplumber_settings_start({ userdata, value in
            guard let userdata else { return }
            Unmanaged<Listener>.fromOpaque(userdata).takeUnretainedValue().changed(PausePlayback(value))
        }, context.toOpaque(), &error)
        guard let started else {
            context.release()
            return error.map { String(cString: $0) } ?? "cannot follow WirePlumber's settings"
        }
        watcher.withLock { $0 = UInt(bitPattern: started) }
        return nil
    }

    /// Stops following; the setting is unknown again. Idempotent.
    public func stop() {
        guard let bits = watcher.withLock({ value -> UInt? in
            defer { value = nil }
            return value
        }), let pointer = OpaquePointer(bitPattern: bits) else { return }
        mprisd_wireplumber_settings_stop(pointer)
        Unmanaged.passUnretained(listener).release()  // the reference `start` retained for it
        listener.changed(.unknown)
    }
}
