#if canImport(Glibc)
import Glibc
#endif

/// The header strings of the last message a connection received, kept for the next one.
///
/// Consecutive messages nearly always repeat them (a client calling the same interface of the same
/// object again); comparing the C string with the kept one costs a `strcmp` where decoding it costs
/// an allocation and a UTF-8 validation. Loop-confined, like the connection that owns it.
struct HeaderStrings {
    private var sender: String?
    private var destination: String?
    private var path: String?
    private var interface: String?
    private var member: String?

    mutating func sender(_ text: UnsafePointer<CChar>?) -> String? { Self.reuse(&sender, text) }
    mutating func destination(_ text: UnsafePointer<CChar>?) -> String? { Self.reuse(&destination, text) }
    mutating func path(_ text: UnsafePointer<CChar>?) -> String? { Self.reuse(&path, text) }
    mutating func interface(_ text: UnsafePointer<CChar>?) -> String? { Self.reuse(&interface, text) }
    mutating func member(_ text: UnsafePointer<CChar>?) -> String? { Self.reuse(&member, text) }

    private static func reuse(_ kept: inout String?, _ text: UnsafePointer<CChar>?) -> String? {
        guard let text else { return nil }
        if let kept, kept.withCString({ strcmp($0, text) == 0 }) { return kept }
        let fresh = String(cString: text)
        kept = fresh
        return fresh
    }
}
