import Synchronization

/// The remote commands an app accepts: per command an enabled flag and a handler.
///
/// A command is *available* when it is enabled and has a handler; only available commands ever
/// reach a handler (G-RC-FAITHFUL: "handle only the events that make sense; do not respond to the
/// rest"), and the MPRIS `Can*` properties are derived from availability, never hard-coded.
/// Whether the app holds remote control at all is the endpoint's audio-context gate
/// (G-RC-CONTEXT), not this object's business.
///
/// Thread-safe: configure and perform from any thread. Handlers and observers run outside the
/// lock, so they may call back into the center. Observers run on the thread that made the change,
/// right after it; the endpoint's observer folds a change made inside `MPRISEndpoint.update {}`
/// into that update's announcement instead of locking the endpoint again.
public final class RemoteCommandCenter: Sendable {
    private struct Entry {
        var enabled = true
        var handler: RemoteCommandHandler?
    }

    private struct State {
        var entries: [RemoteCommand: Entry] = [:]
        var observers: [UInt64: @Sendable () -> Void] = [:]
        var nextToken: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Installs `handler` for `command` and sets its enabled flag (enabled by default).
    public func setHandler(_ command: RemoteCommand, enabled: Bool = true,
                           _ handler: @escaping RemoteCommandHandler) {
        change { $0.entries[command] = Entry(enabled: enabled, handler: handler) }
    }

    /// Installs one handler for several commands (it receives the event, which names the command).
    public func setHandler(_ commands: [RemoteCommand], enabled: Bool = true,
                           _ handler: @escaping RemoteCommandHandler) {
        change { state in
            for command in commands { state.entries[command] = Entry(enabled: enabled, handler: handler) }
        }
    }

    /// Removes the handler of `command`: it becomes unavailable.
    public func removeHandler(_ command: RemoteCommand) {
        change { $0.entries[command]?.handler = nil }
    }

    /// Enables or disables `command`, keeping its handler.
    public func setEnabled(_ command: RemoteCommand, _ enabled: Bool) {
        change { $0.entries[command, default: Entry()].enabled = enabled }
    }

    /// Whether `command` is enabled (it may still lack a handler). Commands are enabled by default.
    public func isEnabled(_ command: RemoteCommand) -> Bool {
        state.withLock { $0.entries[command]?.enabled ?? true }
    }

    /// Whether `command` is enabled and has a handler.
    public func isAvailable(_ command: RemoteCommand) -> Bool {
        state.withLock { Self.available($0.entries[command]) }
    }

    /// Every available command.
    public var availableCommands: Set<RemoteCommand> {
        state.withLock { state in
            Set(state.entries.compactMap { Self.available($0.value) ? $0.key : nil })
        }
    }

    /// Delivers `event` to its handler if the command is available, on the calling thread.
    /// - Returns: the handler's status, or nil when the command is unavailable (nothing ran).
    @discardableResult
    public func perform(_ event: RemoteCommandEvent) -> RemoteCommandStatus? {
        let handler: RemoteCommandHandler? = state.withLock { state in
            guard let entry = state.entries[event.command], entry.enabled else { return nil }
            return entry.handler
        }
        return handler?(event)
    }

    /// Calls `observer` after every change of the commands' configuration (outside the lock).
    /// Returns a token for `removeObserver`.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            state.nextToken += 1
            state.observers[state.nextToken] = observer
            return state.nextToken
        }
    }

    public func removeObserver(_ token: UInt64) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    private func change(_ body: (inout State) -> Void) {
        let observers = state.withLock { state in
            body(&state)
            return Array(state.observers.values)
        }
        for observer in observers { observer() }
    }

    private static func available(_ entry: Entry?) -> Bool {
        guard let entry else { return false }
        return entry.enabled && entry.handler != nil
    }
}
