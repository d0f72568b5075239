import Posix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Writing to the standard streams without touching C's shared `FILE*` globals.
///
/// Standard output is the command's result: a write that fails (a full disk, a closed pipe reader
/// that did not kill us, an I/O error) is remembered, and `finish` turns it into exit status 1 with
/// one line on standard error — a script must never take a cut or missing result for a success.
enum Output {
    /// The `errno` of the first failed write to standard output; 0 while all went through.
    private static let outputFailure = Atomic<Int32>(0)

    static func out(_ text: String) {
        if let code = write(1, text) {
            _ = outputFailure.compareExchange(expected: 0, desired: code, ordering: .relaxed)
        }
    }

    /// A message for a person: control characters in it — an argument typed with ESC or BEL, a
    /// name a daemon's error quotes back — are shown escaped (`TerminalText`), line by line.
    static func error(_ text: String) {
        _ = write(2, TerminalText.sanitizedLines(text))
    }

    /// `status`, or 1 (with the reason on standard error) when writing the output failed.
    static func finish(_ status: Int32) -> Int32 {
        let code = outputFailure.load(ordering: .relaxed)
        guard code != 0 else { return status }
        error("mprisd: cannot write the output: \(PosixError.reason(code))")
        return status == ExitStatus.success ? ExitStatus.failure : status
    }

    /// Writes `text` and a final newline; the `errno` of a failure, nil when all was written.
    private static func write(_ fd: Int32, _ text: String) -> Int32? {
        var bytes = Array(text.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written < 0 { return errno }
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }
}
