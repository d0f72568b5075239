import Posix
#if canImport(Glibc)
import Glibc
#endif

/// A small text file of persisted state (silent mode, the route pick), read whole through
/// `SettingsFile` (never blocking, never cut) and replaced atomically: written to a temporary file
/// beside it, flushed, then renamed over it, so a reader (or a crash) never sees half a value.
public struct StateFile: Sendable, Hashable {
    /// The file's path.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// A file in mprisd's state directory.
    public init(named name: String) {
        self.init(path: UserDirectories.state + "/" + name)
    }

    /// The directory holding the file.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The file's name inside `directory`.
    public var fileName: String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The contents without surrounding white space; nil when the file does not exist or is not
    /// a file to read (a missing state file means "the default"). A file that is there but refused
    /// (`SettingsFile`) is reported through `report`, by default as one line on standard error.
    public func read(report: (SettingsFileProblem) -> Void = { $0.report() }) -> String? {
        do {
            return try SettingsFile.read(path)?.trimmingWhiteSpace
        } catch {
            report(error)
            return nil
        }
    }

    /// The file's lines, each nil where it is not text (`SettingsFile.readLines`); nil when the
    /// file does not exist or is refused (reported through `report`).
    public func readLines(report: (SettingsFileProblem) -> Void = { $0.report() }) -> [String?]? {
        do {
            return try SettingsFile.readLines(path)
        } catch {
            report(error)
            return nil
        }
    }

    /// Replaces the contents with `value` and a newline, atomically; creates the directory.
    public func write(_ value: String) throws(StateFileError) {
        try replace(contents: value + "\n")
    }

    /// Replaces the contents with exactly `contents`, atomically: a temporary file beside it
    /// (same directory, so `rename(2)` is atomic), written, flushed (`fsync`), then renamed over
    /// it. Creates the directory (0700) when missing. A file that exists keeps its permission
    /// bits; a new one gets 0644 under the umask. Nothing is left behind on failure.
    public func replace(contents: String) throws(StateFileError) {
        try Self.makeDirectory(directory)
        let temporary = directory + "/." + fileName + ".\(getpid()).tmp"
        var existing = stat()
        let keptMode: mode_t? = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : nil
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, keptMode ?? 0o644)
        guard fd >= 0 else { throw StateFileError(path: temporary, operation: "create", code: errno) }
        func fail(_ operation: String, _ code: Int32) -> StateFileError {
            close(fd)
            unlink(temporary)
            return StateFileError(path: temporary, operation: operation, code: code)
        }
        if let keptMode, fchmod(fd, keptMode) != 0 { throw fail("set the permissions of", errno) }
        let bytes = Array(contents.utf8)
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { throw fail("write", wrote == 0 ? EIO : errno) }
            offset += wrote
        }
        guard fsync(fd) == 0 else { throw fail("flush", errno) }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw StateFileError(path: path, operation: "replace", code: code)
        }
    }

    /// Removes the file (back to the default); a missing file is fine.
    public func remove() throws(StateFileError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw StateFileError(path: path, operation: "remove", code: errno)
        }
    }

    /// `mkdir -p`, private to the user (0700) as the XDG specification asks.
    package static func makeDirectory(_ path: String) throws(StateFileError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0, errno != EEXIST {
                throw StateFileError(path: current, operation: "create the directory", code: errno)
            }
        }
    }
}

/// A state file could not be written.
public struct StateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let operation: String
    /// The `errno` value.
    public let code: Int32

    public var description: String {
        "cannot \(operation) \(path): \(PosixError.reason(code))"
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmingWhiteSpace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
