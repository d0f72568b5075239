import Synchronization

/// Calls back whenever a `StateFile`'s contents change — replaced, written or removed — so a
/// running player follows `mprisd route use` at once. A `FileWatcher` on the file, which remembers
/// the last contents to report only real changes.
public final class StateFileWatcher: Sendable {
    private let watcher: FileWatcher

    /// Starts watching `file`; `onChange` runs on the watcher's thread with the new contents (nil:
    /// removed). Creates the directory when missing.
    public init(_ file: StateFile, onChange: @escaping @Sendable (String?) -> Void) throws(StateFileError) {
        // Read here, not on the thread: a change made right after `init` returns must be one.
        // Quiet: whoever started the watcher has read the file and reported what was wrong with it.
        let last = Mutex<String?>(file.read(report: { _ in }))
        watcher = try FileWatcher(path: file.path, events: [.complete, .created]) {
            let now = file.read()
            let changed = last.withLock { last in
                defer { last = now }
                return last != now
            }
            if changed { onChange(now) }
        }
    }

    deinit { stop() }

    /// Stops watching and joins the thread (idempotent). Not from `onChange` itself.
    public func stop() {
        watcher.stop()
    }
}
