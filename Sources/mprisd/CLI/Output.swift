#if canImport(Glibc)
import Glibc
#endif

/// Writing to the standard streams without touching C's shared `FILE*` globals.
enum Output {
    static func out(_ text: String) {
        write(1, text)
    }

    static func error(_ text: String) {
        write(2, text)
    }

    private static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Exit statuses (sysexits.h).
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
    static let unavailable: Int32 = 69
}
