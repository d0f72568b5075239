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

    /// Replaces the contents with `value` and a newline, atomically; creates the directory.
    public func write(_ value: String) throws(StateFileError) {
        try Self.makeDirectory(directory)
        let temporary = directory + "/." + fileName + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StateFileError(path: temporary, operation: "create", code: errno) }
        let bytes = Array((value + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else {
                let code = errno
                close(fd)
                unlink(temporary)
                throw StateFileError(path: temporary, operation: "write", code: code)
            }
            offset += wrote
        }
        let synced = fsync(fd) == 0 ? 0 : errno
        close(fd)
        guard synced == 0 else {
            unlink(temporary)
            throw StateFileError(path: temporary, operation: "flush", code: synced)
        }
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
