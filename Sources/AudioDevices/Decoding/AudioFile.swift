import CSndfile
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// One open audio file, decoded by libsndfile into interleaved `Float` frames in -1…1.
///
/// Not `Sendable`: a decoder has one reader. Open it where convenient and hand it to the audio
/// thread (`sending`); read, seek and let it go there. The file is closed when the object goes.
public final class AudioFile {
    /// The path it was opened with, as bytes.
    public let location: MediaPath
    /// The path for people (invalid UTF-8 shown as U+FFFD).
    public var path: String { location.description }
    /// Rate, channels, length and format names.
    public let info: AudioFileInfo
    /// The tags, read once at open.
    public let tags: Tags
    private let handle: OpaquePointer

    /// Opens `path` for decoding.
    ///
    /// Checks the path first (`stat`), so a missing file, a directory or an empty file each get their
    /// own error instead of libsndfile's generic one; everything else libsndfile refuses is
    /// `.notDecodable` with its reason.
    public convenience init(path: String) throws(AudioFileError) {
        try self.init(path: MediaPath(path))
    }

    /// Opens the file at `location` (bytes: any name the kernel accepts).
    public init(path location: MediaPath) throws(AudioFileError) {
        let path = location.description
        try AudioFile.checkPath(location)
        if let reason = Sndfile.unavailableReason { throw .notDecodable(path: path, reason: reason) }
        let opened = Sndfile.openForReading(location)
        guard let handle = opened.handle else {
            throw .notDecodable(path: path, reason: AudioFile.explain(opened.error, path: path))
        }
        let raw = opened.info
        guard raw.channels > 0, raw.samplerate > 0 else {
            Sndfile.close(handle)
            throw .notDecodable(path: path, reason: "no audio channels")
        }
        guard MediaTime.isPlausible(sampleRate: Int(raw.samplerate), channels: Int(raw.channels)) else {
            Sndfile.close(handle)
            throw .notDecodable(path: path, reason: "implausible format (\(raw.samplerate) Hz, \(raw.channels) channels)")
        }
        self.location = location
        self.handle = handle
        info = AudioFileInfo(
            sampleRate: Int(raw.samplerate), channels: Int(raw.channels), frames: Int(max(raw.frames, 0)),
            isSeekable: raw.seekable != 0,
            formatName: Sndfile.formatName(raw.format & Sndfile.majorMask) ?? "unknown format",
            encodingName: Sndfile.formatName(raw.format & Sndfile.subtypeMask) ?? "unknown encoding")
        tags = AudioFile.readTags(handle)
    }

    deinit {
        Sndfile.close(handle)
    }

    /// The title to display: the title tag, else the file name without extension.
    public var displayTitle: String {
        tags.title ?? Tags.fallbackTitle(forPath: path)
    }

    /// Decodes the next frames into `buffer` (interleaved, `info.channels` samples per frame; a
    /// trailing partial frame of the buffer is left untouched).
    ///
    /// A stream that breaks off (a truncated FLAC) first delivers the frames decoded before the
    /// damage; the next call throws.
    ///
    /// - Returns: the frames decoded; 0 at the end of the file.
    /// - Throws: `.readFailed` when libsndfile reports an error and has no frames left to give.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioFileError) -> Int {
        let wanted = buffer.count / info.channels
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        let got = max(Sndfile.readFrames(handle, into: base, frames: wanted), 0)
        if got == 0, Sndfile.errorCode(handle) != 0 {
            throw .readFailed(path: path, reason: Sndfile.lastError(handle))
        }
        return got
    }

    /// Moves the decoder to `frame` (clamped to 0…`info.frames`); the next `read` starts there.
    ///
    /// - Returns: the frame it moved to.
    @discardableResult
    public func seek(toFrame frame: Int) throws(AudioFileError) -> Int {
        let target = min(max(frame, 0), info.frames)
        guard info.isSeekable else {
            throw .seekFailed(path: path, frame: target, reason: "the stream is not seekable")
        }
        let reached = Sndfile.seek(handle, toFrame: target)
        guard reached >= 0 else {
            throw .seekFailed(path: path, frame: target, reason: Sndfile.lastError(handle))
        }
        return reached
    }

    // MARK: Helpers

    private static func checkPath(_ location: MediaPath) throws(AudioFileError) {
        let path = location.description
        var status = stat()
        guard location.withCString({ stat($0, &status) }) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
            throw .unreadable(path: path, reason: PosixError.reason(code))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: path) }
        // A FIFO, socket or device: opening it can block forever (a FIFO waits for a writer).
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        if status.st_size == 0, (status.st_mode & S_IFMT) == S_IFREG { throw .empty(path: path) }
        guard location.withCString({ access($0, R_OK) }) == 0 else {
            throw .unreadable(path: path, reason: PosixError.reason(errno))
        }
    }

    /// libsndfile's reason, plus the plain answer when the extension names a format it lacks.
    private static func explain(_ reason: String, path: String) -> String {
        let trimmed = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        if let missing = SupportedFormats.installed.missingFormat(forPath: path) {
            return "\(trimmed) (\(missing) is not supported by this libsndfile, \(LibraryVersions.sndfile))"
        }
        return trimmed
    }

    private static func readTags(_ handle: OpaquePointer) -> Tags {
        Tags(title: Sndfile.string(handle, SF_STR_TITLE),
             artist: Sndfile.string(handle, SF_STR_ARTIST),
             album: Sndfile.string(handle, SF_STR_ALBUM),
             albumArtist: nil,
             trackNumber: Tags.trackNumber(from: Sndfile.string(handle, SF_STR_TRACKNUMBER)),
             date: Sndfile.string(handle, SF_STR_DATE),
             genre: Sndfile.string(handle, SF_STR_GENRE),
             comment: Sndfile.string(handle, SF_STR_COMMENT))
    }
}
