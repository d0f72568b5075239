import AudioDevices
#if canImport(Glibc)
import Glibc
#endif

/// The command line's paths as the bytes they were given as.
///
/// `CommandLine.arguments` decodes each argument as UTF-8 and repairs what is invalid with
/// U+FFFD, so a file name that is not UTF-8 arrives as a name that does not exist. The bytes are
/// still in `argv`: a path that holds U+FFFD is matched back to the `argv` entry it was decoded
/// from, in order (so two arguments that decode alike map to their own entries).
enum ArgumentBytes {
    /// `paths` (from `CommandLine.arguments`) with each repaired one replaced by its raw bytes.
    static func recover(_ paths: [String], argv: [[UInt8]] = ArgumentBytes.argv) -> [MediaPath] {
        var next = 0
        return paths.map { path in
            guard path.unicodeScalars.contains("\u{FFFD}"), next < argv.count,
                  let index = argv[next...].firstIndex(where: { String(decoding: $0, as: UTF8.self) == path }) else {
                return MediaPath(path)
            }
            next = index + 1
            return MediaPath(bytes: argv[index])
        }
    }

    /// The process's `argv`, as bytes.
    static var argv: [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }
}
