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

    public var description: String { "\(operation) failed: errno \(code)" }
}
