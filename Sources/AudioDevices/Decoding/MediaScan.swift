import Posix
#if canImport(Glibc)
import Glibc
#endif

/// Expands the `FILE|DIR…` arguments of `mprisd play` into the files to queue.
///
/// A file argument is queued as given, whatever its name: the user asked for it, and the decoder
/// says why if it cannot play it. A directory is walked recursively (symbolic links followed, each
/// directory once, hidden entries skipped) for files whose extension is a candidate, sorted in
/// natural order (`2 b.flac` before `10 a.flac`) by their path. What cannot be used is reported in
/// `problems`, never thrown: one bad argument must not stop the queue. Paths stay bytes
/// (`MediaPath`): a name that is not valid UTF-8 is found and played like any other.
public struct MediaScan: Sendable, Hashable {
    /// An argument or entry that contributed nothing, and why.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The files to queue, arguments in the order given, each directory's files sorted.
    public var files: [MediaPath] = []
    /// Missing arguments, unreadable directories, directories without audio.
    public var problems: [Problem] = []

    /// The default candidates: what the installed libsndfile reads plus the common music extensions.
    public static var candidateExtensions: Set<String> {
        SupportedFormats.installed.fileExtensions.union(SupportedFormats.commonExtensions)
    }

    /// Scans `arguments` given as text (valid UTF-8 names).
    public static func expand(_ arguments: [String],
                              extensions: Set<String> = MediaScan.candidateExtensions) -> MediaScan {
        expand(arguments.map { MediaPath($0) }, extensions: extensions)
    }

    /// Scans `arguments`; `extensions` are lowercase, without the dot.
    public static func expand(_ arguments: [MediaPath],
                              extensions: Set<String> = MediaScan.candidateExtensions) -> MediaScan {
        var scan = MediaScan()
        for argument in arguments {
            var status = stat()
            guard argument.withCString({ stat($0, &status) }) == 0 else {
                scan.problems.append(Problem(path: argument.description, reason: PosixError.reason(errno)))
                continue
            }
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                scan.files.append(argument)
                continue
            }
            var walker = DirectoryWalker(extensions: extensions)
            walker.walk(argument)
            scan.problems += walker.problems
            if walker.files.isEmpty {
                if walker.problems.isEmpty {
                    scan.problems.append(Problem(path: argument.description, reason: "no audio files found"))
                }
                continue
            }
            scan.files += walker.files.sorted(by: NaturalOrder.pathPrecedes)
        }
        return scan
    }
}

/// One recursive walk (`opendir`/`readdir`), remembering visited directories by device and inode so
/// a symbolic-link loop ends.
private struct DirectoryWalker {
    let extensions: Set<String>
    var files: [MediaPath] = []
    var problems: [MediaScan.Problem] = []
    private var visited = Set<[UInt64]>()

    init(extensions: Set<String>) {
        self.extensions = extensions
    }

    mutating func walk(_ directory: MediaPath) {
        var status = stat()
        guard directory.withCString({ stat($0, &status) }) == 0 else { return }
        guard visited.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else { return }
        guard let stream = directory.withCString({ opendir($0) }) else {
            problems.append(.init(path: directory.description, reason: PosixError.reason(errno)))
            return
        }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            // `d_name` as bytes: a name that is not UTF-8 must reach `open` unchanged.
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name.first != UInt8(ascii: ".") { names.append(name) }
        }
        closedir(stream)
        for name in names {
            let path = directory.appending(component: name)
            var entryStatus = stat()
            guard path.withCString({ stat($0, &entryStatus) }) == 0 else {
                problems.append(.init(path: path.description, reason: PosixError.reason(errno)))
                continue
            }
            if (entryStatus.st_mode & S_IFMT) == S_IFDIR {
                walk(path)
            } else if (entryStatus.st_mode & S_IFMT) == S_IFREG,
                      extensions.contains(SupportedFormats.fileExtension(of: String(decoding: name, as: UTF8.self))) {
                files.append(path)
            }
        }
    }
}
