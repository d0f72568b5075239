#if canImport(Glibc)
import Glibc
#endif

/// A POSIX call that failed: which one, and the error number it reported (`errno`, or the return
/// value of the `pthread_*` calls, which do not set `errno`).
public struct PosixError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed, e.g. `"eventfd"`.
    public let operation: String
    /// The `errno` value.
    public let code: Int32

    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// `operation` and `errno` as the calling thread left them.
    static func lastError(_ operation: String) -> PosixError {
        PosixError(operation, code: errno)
    }

    /// What the C library calls `code` (`strerror`: "Too many open files"), the one way every
    /// message of the program names an `errno` — never the bare number.
    public static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// `code` in words.
    public var reason: String { PosixError.reason(code) }

    public var description: String { "\(operation) failed: \(reason)" }
}
