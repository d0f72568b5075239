/// Why a file cannot be played, in words the player can print as they are.
///
/// Every case carries the path, so `description` is a complete line for stderr
/// (`song.flac: not a readable audio file (…)`), and the player can decide per case whether to skip
/// the file (all of them, today) without parsing messages.
public enum AudioFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path.
    case notFound(path: String)
    /// The path is a directory, not a file.
    case isDirectory(path: String)
    /// The file exists but is empty.
    case empty(path: String)
    /// The file exists but cannot be read (permissions, I/O error); `reason` is `strerror` text.
    case unreadable(path: String, reason: String)
    /// libsndfile refused the file: not audio, a format it lacks, or a damaged header.
    /// `reason` is libsndfile's own text (`sf_strerror`), plus a note when the file's extension names
    /// a format this libsndfile was built without (`MP3 is not supported by this libsndfile`).
    case notDecodable(path: String, reason: String)
    /// Decoding failed part-way through (a truncated or corrupt stream).
    case readFailed(path: String, reason: String)
    /// The decoder could not move to the requested frame.
    case seekFailed(path: String, frame: Int, reason: String)

    /// The path the error is about.
    public var path: String {
        switch self {
        case .notFound(let path), .isDirectory(let path), .empty(let path),
             .unreadable(let path, _), .notDecodable(let path, _), .readFailed(let path, _),
             .seekFailed(let path, _, _):
            return path
        }
    }

    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file"
        case .isDirectory(let path): return "\(path): is a directory, not an audio file"
        case .empty(let path): return "\(path): empty file"
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .notDecodable(let path, let reason): return "\(path): not a playable audio file: \(reason)"
        case .readFailed(let path, let reason): return "\(path): decoding failed: \(reason)"
        case .seekFailed(let path, let frame, let reason):
            return "\(path): cannot seek to frame \(frame): \(reason)"
        }
    }
}
