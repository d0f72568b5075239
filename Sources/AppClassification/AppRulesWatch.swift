import Synchronization
import SystemContext
#if canImport(Glibc)
import Glibc
#endif

/// The user's apps file (`AppRules`) as the running daemon knows it: read once at start, then
/// read again whenever it changes — `mprisd apps set`, an editor — through inotify
/// (`FileWatcher`: asleep while nothing changes, no polling). Each read that changes the rules
/// reports the file's problems once (`briefProblems`, so a broken file cannot flood the log)
/// and hands the new rules to `onReload`; a read that changes nothing (an editor saving the same
/// text) is silent. A removed file is no rules.
///
/// A file that is a symbolic link (dotfiles kept elsewhere; `mprisd apps set` writes through the
/// link) is followed in both places: the link's directory (the link replaced or removed) and its
/// target's (the target rewritten). A link pointed elsewhere later is read, but its new target's
/// directory is not watched until the daemon restarts.
///
/// The rules at start are `rules`, for the parts made after it; `onReload` runs on the watchers'
/// threads, and the rules are compared and kept under one lock, so each change is one reload.
public final class AppRulesWatch: Sendable {
    private let current: Current
    private let watchers: [FileWatcher]

    /// Reads `path` (reporting its problems through `warn`) and follows it. When it cannot be
    /// followed (no inotify, a directory that cannot be made), `warn` says so and the rules read
    /// now stay.
    public init(path: String = UserDirectories.appsFile, warn: @escaping @Sendable (String) -> Void,
                onReload: @escaping @Sendable (AppRules) -> Void) {
        let current = Current(AppRules.load(path: path))
        self.current = current
        for problem in current.rules.briefProblems { warn(problem) }
        let reload: @Sendable () -> Void = {
            let rules = AppRules.load(path: path)
            guard current.replace(with: rules) else { return }
            for problem in rules.briefProblems { warn(problem) }
            onReload(rules)
        }
        var watchers: [FileWatcher] = []
        for watched in [path] + (Self.linkTarget(path).map { [$0] } ?? []) {
            do {
                watchers.append(try FileWatcher(path: watched, onEvent: reload))
            } catch {
                warn("the apps file is not followed while running: \(error)")
            }
        }
        self.watchers = watchers
    }

    /// Where the symbolic link at `path` leads (`realpath(3)`); nil when `path` is no link or
    /// leads nowhere.
    private static func linkTarget(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    deinit { stop() }

    /// The rules now: those read at start, or of the last reload.
    public var rules: AppRules { current.rules }

    /// Stops following the file (idempotent); `rules` stays what it was.
    public func stop() {
        for watcher in watchers { watcher.stop() }
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
