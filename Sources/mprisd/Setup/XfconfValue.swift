import DBus

/// An xfconf property's value as the setup record keeps it: its D-Bus type letter, a space, and
/// the value (`b false`, `s mprisd-control play-pause --key`, `u 5`), so that undo writes it back
/// with the type it had.
enum XfconfValue {
    /// `value` as text; nil for a type setup does not change (arrays: left alone).
    static func text(_ value: DBusValue) -> String? {
        switch value {
        case .variant(let inner): text(inner)
        case .boolean(let on): "b \(on)"
        case .string(let string): "s \(string)"
        case .int32(let number): "i \(number)"
        case .uint32(let number): "u \(number)"
        case .int64(let number): "x \(number)"
        case .uint64(let number): "t \(number)"
        case .double(let number): "d \(number)"
        default: nil
        }
    }

    /// The value `text` holds; nil for text that is none.
    static func value(_ text: String) -> DBusValue? {
        guard text.count >= 2, text.dropFirst().first == " " else { return nil }
        let rest = String(text.dropFirst(2))
        switch text.first {
        case "b": return rest == "true" ? .boolean(true) : rest == "false" ? .boolean(false) : nil
        case "s": return .string(rest)
        case "i": return Int32(rest).map(DBusValue.int32)
        case "u": return UInt32(rest).map(DBusValue.uint32)
        case "x": return Int64(rest).map(DBusValue.int64)
        case "t": return UInt64(rest).map(DBusValue.uint64)
        case "d": return Double(rest).map(DBusValue.double)
        default: return nil
        }
    }
}
