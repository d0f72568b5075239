import Posix
#if canImport(Glibc)
import Glibc
#endif

/// Calls back whenever inotify reports an event naming one file: the one watcher of the settings
/// and state files a running program follows (`StateFileWatcher`: silent mode, the route pick;
/// the daemon's apps file).
///
/// inotify on the file's directory, not on the file: a file replaced by rename (`StateFile`,
/// `mprisd apps set`, most editors) would take a watch on the file with it. Read by a thread of
/// its own sleeping in `poll()` with no timeout: nothing wakes while nothing changes in the
/// directory (a `PollThread`). `stop()` wakes the thread and joins it.
public final class FileWatcher: Sendable {
    /// Which changes of the file count (inotify's `IN_*` bits on the directory).
    public struct Events: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Closed after writing (`IN_CLOSE_WRITE`).
        public static let written = Events(rawValue: UInt32(IN_CLOSE_WRITE))
        /// Renamed into or out of place (`IN_MOVED_TO | IN_MOVED_FROM`): an atomic replacement.
        public static let moved = Events(rawValue: UInt32(IN_MOVED_TO | IN_MOVED_FROM))
        /// Removed (`IN_DELETE`).
        public static let removed = Events(rawValue: UInt32(IN_DELETE))
        /// Created (`IN_CREATE`), before anything is written to it.
        public static let created = Events(rawValue: UInt32(IN_CREATE))

        /// A new version is complete: written and closed, renamed into place, or removed. Leaves
        /// out `created`, which comes before the contents (an editor writing in place would be
        /// seen empty first).
        public static let complete: Events = [.written, .moved, .removed]
    }

    private let thread: PollThread

    /// Starts watching `path` for `events`; `onEvent` runs on the watcher's thread once per batch
    /// of inotify events that names the file. Creates the directory (0700) when missing: a
    /// directory that appears later could not be watched.
    public init(path: String, events: Events = .complete,
                onEvent: @escaping @Sendable () -> Void) throws(StateFileError) {
        let file = StateFile(path: path)
        try StateFile.makeDirectory(file.directory)
        let inotifyFD = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotifyFD >= 0 else { throw StateFileError(path: file.directory, operation: "watch", code: errno) }
        guard inotify_add_watch(inotifyFD, file.directory, events.rawValue) >= 0 else {
            let code = errno
            close(inotifyFD)
            throw StateFileError(path: file.directory, operation: "watch", code: code)
        }
        let fileName = file.fileName
        // A failing `poll` ends the watch: the file is no longer followed, as after `stop()`.
        do throws(PosixError) {
            thread = try PollThread(name: "file-watch",
                                    descriptors: [pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0)],
                                    work: .init(handle: { _ in
                                        if Self.drainNames(inotifyFD, fileName) { onEvent() }
                                        return true
                                    }, finish: { _ in close(inotifyFD) }))
        } catch {
            // `finish` ran here, and closed the inotify descriptor.
            throw StateFileError(path: file.directory, operation: "start a thread to watch", code: error.code)
        }
    }

    deinit { stop() }

    /// Stops watching and joins the thread (idempotent). Not from `onEvent` itself.
    public func stop() {
        thread.stop()
    }

    /// Reads every queued inotify event (`read(2)` on the inotify descriptor); true if one
    /// names `fileName`.
    private static func drainNames(_ inotifyFD: Int32, _ fileName: String) -> Bool {
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
                if String(decoding: nameBytes, as: UTF8.self) == fileName { concerns = true }
                offset = nameStart + nameLength
            }
        }
    }
}
