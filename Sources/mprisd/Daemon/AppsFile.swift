import Posix
import SystemContext
#if canImport(Glibc)
import Glibc
#endif

/// Where `mprisd apps set` writes: the apps file, or — when it is a symbolic link (dotfiles kept
/// in a repository and linked into place) — the file it points to, so that the replacement
/// (`StateFile.replace`, a rename) updates the user's file instead of breaking the link.
enum AppsFile {
    struct Unwritable: Error, CustomStringConvertible {
        let description: String
    }

    /// `path`, or the target of the symbolic link at `path` (`realpath(3)`).
    static func writablePath(_ path: String) throws(Unwritable) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw Unwritable(description: "cannot follow the link \(path): \(PosixError.reason(errno))")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
