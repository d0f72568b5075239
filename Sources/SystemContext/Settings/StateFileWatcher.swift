import Posix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Calls back whenever a `StateFile` is replaced, written or removed — so a running player follows
/// `mprisd route use` at once.
///
/// inotify on the file's directory (the file itself is replaced by rename, which a watch on the file
/// would lose), read by a thread of its own sleeping in `poll()` with no timeout: nothing wakes while
/// the file does not change (a `PollThread`). `stop()` wakes the thread and joins it.
public final class StateFileWatcher: Sendable {
    private let thread: PollThread

    /// Starts watching `file`; `onChange` runs on the watcher's thread with the new contents (nil:
    /// removed). Creates the directory when missing.
    public init(_ file: StateFile, onChange: @escaping @Sendable (String?) -> Void) throws(StateFileError) {
        try StateFile.makeDirectory(file.directory)
        let inotifyFD = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotifyFD >= 0 else { throw StateFileError(path: file.directory, operation: "watch", code: errno) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
        guard inotify_add_watch(inotifyFD, file.directory, mask) >= 0 else {
            let code = errno
            close(inotifyFD)
            throw StateFileError(path: file.directory, operation: "watch", code: code)
        }
        // Read here, not on the thread: a change made right after `init` returns must be one.
        // Quiet: whoever started the watcher has read the file and reported what was wrong with it.
        let changes = FileChanges(file: file, initial: file.read(report: { _ in }), inotifyFD: inotifyFD,
                                  onChange: onChange)
        // A failing `poll` ends the watch: the file is no longer followed, as after `stop()`.
        do throws(PosixError) {
            thread = try PollThread(name: "state-watch",
                                    descriptors: [pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0)],
                                    work: .init(handle: { _ in
                                        changes.inotifyReadable()
                                        return true
                                    }, finish: { _ in close(inotifyFD) }))
        } catch {
            // `finish` ran here, and closed the inotify descriptor.
            throw StateFileError(path: file.directory, operation: "start a thread to watch", code: error.code)
        }
    }

    deinit { stop() }

    /// Stops watching and joins the thread (idempotent). Not from `onChange` itself.
    public func stop() {
        thread.stop()
    }
}

/// What the watcher's thread knows: the file's last contents, to report only real changes.
private final class FileChanges {
    private let file: StateFile
    private var last: String?
    private let inotifyFD: Int32
    private let onChange: @Sendable (String?) -> Void

    init(file: StateFile, initial: String?, inotifyFD: Int32, onChange: @escaping @Sendable (String?) -> Void) {
        self.file = file
        self.last = initial
        self.inotifyFD = inotifyFD
        self.onChange = onChange
    }

    /// inotify has events: if one names the file and its contents changed, report them.
    func inotifyReadable() {
        guard concernsFile() else { return }
        let now = file.read()
        guard now != last else { return }
        last = now
        onChange(now)
    }

    /// Drains the queued inotify events; true if one names the file.
    private func concernsFile() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var concerns = false
        while true {
            let got = buffer.withUnsafeMutableBytes { read(inotifyFD, $0.baseAddress, $0.count) }
            guard got > 0 else { return concerns }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= got {
                let nameLength = buffer.withUnsafeBytes {
                    Int($0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len)
                }
                let nameStart = offset + headerSize
                let nameEnd = min(nameStart + nameLength, got)
                let nameBytes = buffer[nameStart..<nameEnd].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self) == file.fileName { concerns = true }
                offset = nameStart + nameLength
            }
        }
    }
}
