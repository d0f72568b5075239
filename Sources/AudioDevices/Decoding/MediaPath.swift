/// A file's path as the bytes the kernel knows it by.
///
/// File names on Linux are bytes, not text: a name that is not valid UTF-8 (an old Latin-1 rip, a
/// damaged copy) cannot be held by a Swift `String` without being repaired, and the repaired name
/// (U+FFFD in place of the bad bytes) opens nothing. The player keeps paths as bytes from the
/// command line and the folder scan to `open`, and shows them with U+FFFD (`description`).
public struct MediaPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    public init(_ path: String) {
        bytes = Array(path.utf8)
    }

    /// A path from raw bytes; anything from a NUL on is dropped (no path can contain one).
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The path for people: invalid UTF-8 shown as U+FFFD.
    public var description: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the path is valid UTF-8 (so `description` is exactly the path).
    public var isValidUTF8: Bool {
        MediaPath(description).bytes == bytes
    }

    /// The last component's bytes (the file name).
    public var lastComponent: [UInt8] {
        Array(bytes.split(separator: UInt8(ascii: "/")).last ?? bytes[...])
    }

    /// `self/name` (no doubled slash).
    public func appending(component name: [UInt8]) -> MediaPath {
        let separator: [UInt8] = bytes.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]
        return MediaPath(bytes: bytes + separator + name)
    }

    /// Calls `body` with the path as a NUL-terminated C string, for `open`, `stat` and `sf_open`.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        var cString = bytes.map { CChar(bitPattern: $0) }
        cString.append(0)
        return try body(cString)
    }
}
