import CPulse
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// Waits, with inotify, for the server's socket file to appear — never by polling, never with
/// a timer. It watches the socket's directory for the socket's name; when that directory does not
/// exist either (no `$XDG_RUNTIME_DIR/pulse` before the first server starts), the nearest
/// existing ancestor for the name of the next missing directory. Each time that name appears (or
/// the watched directory goes away) `onEvent` runs; the link then checks the socket and `arm`s
/// the watch again, one level deeper when a directory appeared. Lives on the loop's thread; its
/// descriptor is one of the loop's io events.
final class ServerSocketWatch {
    let socketPath: String
    private let fd: Int32
    private var watchDescriptor: Int32 = -1
    /// The name awaited in the watched directory.
    private var awaited: String?
    private var event: IOEvent?

    /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`, its descriptor polled by `loop`.
    init(socketPath: String, loop: LoopCore, onEvent: @escaping () -> Void) throws(PosixError) {
        self.socketPath = socketPath
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw PosixError("inotify_init1", code: errno) }
        event = loop.watch(fd: fd, events: PA_IO_EVENT_INPUT.rawValue) { [unowned self] _ in
            if drainConcernsAwaited() { onEvent() }
        }
    }

    /// Watches the socket's directory, or its nearest existing ancestor (`inotify_add_watch`).
    /// Call `socketExists` after it: the file may have appeared just before the watch.
    func arm() throws(PosixError) {
        var directory = parent(of: socketPath)
        var name = baseName(of: socketPath)
        while !isDirectory(directory) {
            name = baseName(of: directory)
            directory = parent(of: directory)
        }
        disarm()
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
        let descriptor = inotify_add_watch(fd, directory, mask)
        guard descriptor >= 0 else { throw PosixError("inotify_add_watch", code: errno) }
        watchDescriptor = descriptor
        awaited = name
    }

    /// Stops watching (while connected nothing needs to be known about the directory).
    func disarm() {
        if watchDescriptor >= 0 { inotify_rm_watch(fd, watchDescriptor) }
        watchDescriptor = -1
        awaited = nil
    }

    /// Whether the socket file exists now (`stat`).
    var socketExists: Bool {
        var info = stat()
        return stat(socketPath, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Closes the inotify descriptor and leaves the loop.
    func close(loop: LoopCore) {
        disarm()
        if let event { loop.free(event) }
        event = nil
        _ = Glibc.close(fd)
    }

    /// Reads every queued inotify event; true if one names the awaited entry or says the watched
    /// directory itself went away.
    private func drainConcernsAwaited() -> Bool {
        var concerns = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard got > 0 else { return concerns }
            var offset = 0
            while offset + headerSize <= got {
                let header = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let nameStart = offset + headerSize
                let nameEnd = min(nameStart + Int(header.len), got)
                let name = String(decoding: buffer[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
                let selfGone = header.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0
                if header.wd == watchDescriptor && (selfGone || name == awaited) { concerns = true }
                offset = nameEnd
            }
        }
    }
}

private func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

private func baseName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}

private func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
