/// An opaque session identifier, unique for the life of one `PolicyEngine` (never reused).
///
/// A daemon maps it to an object path (`/org/mprisd/AudioPolicy/session/<rawValue>`) and to the bus
/// name that owns the session; foreign MPRIS players get ids the same way.
public struct SessionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }
}
