import Synchronization
import SystemContext

/// The user's apps file (`AppRules`) as the running daemon knows it: read once at start, then
/// read again whenever it changes — `mprisd apps set`, an editor — through inotify
/// (`FileWatcher`: asleep while nothing changes, no polling). Each read that changes the rules
/// reports the file's problems once (`briefProblems`, so a broken file cannot flood the log)
/// and hands the new rules to `onReload`; a read that changes nothing (an editor saving the same
/// text) is silent. A removed file is no rules.
///
/// The rules at start are `rules`, for the parts made after it; `onReload` runs on the watcher's
/// thread, one reload at a time.
public final class AppRulesWatch: Sendable {
    private let current: Current
    private let watcher: FileWatcher?

    /// Reads `path` (reporting its problems through `warn`) and follows it. When it cannot be
    /// followed (no inotify, a directory that cannot be made), `warn` says so and the rules read
    /// now stay.
    public init(path: String = UserDirectories.appsFile, warn: @escaping @Sendable (String) -> Void,
                onReload: @escaping @Sendable (AppRules) -> Void) {
        let current = Current(AppRules.load(path: path))
        self.current = current
        for problem in current.rules.briefProblems { warn(problem) }
        do {
            watcher = try FileWatcher(path: path) {
                let rules = AppRules.load(path: path)
                guard current.replace(with: rules) else { return }
                for problem in rules.briefProblems { warn(problem) }
                onReload(rules)
            }
        } catch {
            warn("the apps file is not followed while running: \(error)")
            watcher = nil
        }
    }

    deinit { stop() }

    /// The rules now: those read at start, or of the last reload.
    public var rules: AppRules { current.rules }

    /// Stops following the file (idempotent); `rules` stays what it was.
    public func stop() {
        watcher?.stop()
    }
}

/// The last rules read, shared by the watcher's thread and readers of `rules`.
private final class Current: Sendable {
    private let state: Mutex<AppRules>

    init(_ rules: AppRules) { state = Mutex(rules) }

    var rules: AppRules { state.withLock { $0 } }

    /// Keeps `rules`; false when they are what was kept already.
    func replace(with rules: AppRules) -> Bool {
        state.withLock { kept in
            guard kept != rules else { return false }
            kept = rules
            return true
        }
    }
}
