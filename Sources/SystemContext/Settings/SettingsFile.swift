import Posix
#if canImport(Glibc)
import Glibc
#endif

/// The one way mprisd reads a file the user controls — the configuration, silent mode, the route
/// pick — so that no such file can hang or flood a program.
///
/// Opened with `O_NONBLOCK` (a FIFO put there would otherwise block `open()` until a writer comes,
/// forever), then `fstat`: only a regular file is read (a symlink to one is fine). At most
/// `sizeLimit` bytes: a larger file is refused whole, never cut, since a cut value is a wrong
/// value. The text must be UTF-8 without NUL bytes; anything else is not a settings file.
public enum SettingsFile {
    /// 1 MiB: far beyond any real configuration.
    public static let sizeLimit = 1 << 20

    /// The file's lines (split at `\n`), each its text — or nil for a line that is not text (a
    /// NUL byte, bytes that are not UTF-8) — so that one damaged line costs that line only: for
    /// files of independent records (the journal). nil when the file does not exist; the other
    /// checks are `read`'s.
    public static func readLines(_ path: String) throws(SettingsFileProblem) -> [String?]? {
        guard let bytes = try readBytes(path) else { return nil }
        return bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.contains(0) ? nil : String(validating: line, as: UTF8.self)
        }
    }

    /// The file's text; nil when it does not exist.
    public static func read(_ path: String) throws(SettingsFileProblem) -> String? {
        guard let bytes = try readBytes(path) else { return nil }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            throw .notText(path: path)
        }
        return text
    }

    /// The file's bytes, read the one safe way (see above); nil when it does not exist.
    private static func readBytes(_ path: String) throws(SettingsFileProblem) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .unreadable(path: path, code: errno)
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(path: path, code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
        return try readAll(fd, path: path)
    }

    /// Up to `sizeLimit` bytes; one more means the file is too large.
    private static func readAll(_ fd: Int32, path: String) throws(SettingsFileProblem) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count <= sizeLimit {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            if got < 0 { throw .unreadable(path: path, code: errno) }
            if got == 0 { return bytes }
            bytes += chunk[..<got]
        }
        throw .tooLarge(path: path)
    }
}

/// Why a settings file was ignored; its description is the one line shown for it.
public enum SettingsFileProblem: Error, Sendable, Hashable, CustomStringConvertible {
    case notRegularFile(path: String)
    case tooLarge(path: String)
    case notText(path: String)
    case unreadable(path: String, code: Int32)

    public var path: String {
        switch self {
        case .notRegularFile(let path), .tooLarge(let path), .notText(let path), .unreadable(let path, _): path
        }
    }

    public var description: String {
        switch self {
        case .notRegularFile: "\(path): not a regular file; ignored"
        case .tooLarge: "\(path): larger than \(SettingsFile.sizeLimit >> 20) MiB; ignored"
        case .notText: "\(path): not UTF-8 text; ignored"
        case .unreadable(_, let code): "\(path): \(PosixError.reason(code)); ignored"
        }
    }

    /// Writes the line on standard error, with the warning priority (`<4>`) under systemd as the
    /// daemon's log does: for readers that have no log of their own to hand it to.
    public func report() {
        let prefix = getenv("JOURNAL_STREAM") != nil ? "<4>" : ""
        var bytes = Array((prefix + description + "\n").utf8)
        bytes.withUnsafeMutableBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}
