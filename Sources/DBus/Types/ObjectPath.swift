/// A valid D-Bus object path (`/`, or `/`-separated elements of `[A-Za-z0-9_]`, no trailing `/`).
///
/// Validated once on construction, so every `ObjectPath` can be marshalled without further checks.
public struct ObjectPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// Validates `rawValue`; throws `InvalidArgs` with the reason when it is not an object path.
    public init(_ rawValue: String) throws(DBusError) {
        guard let problem = ObjectPath.problem(in: rawValue) else {
            self.rawValue = rawValue
            return
        }
        throw DBusError.invalidArgs("'\(rawValue)' is not an object path: \(problem)")
    }

    /// A path written in the source, such as `ObjectPath(trusted: "/org/mpris/MediaPlayer2")`:
    /// names a program declares once need no `try` at every use. Only for compile-time literals —
    /// a path from outside goes through the throwing initializer. An invalid literal is a
    /// programming error, caught by an assertion in debug builds (and by libdbus, which refuses
    /// the message, in release builds).
    public init(trusted literal: StaticString) {
        let text = literal.description
        assert(ObjectPath.problem(in: text) == nil,
               "'\(text)' is not an object path: \(ObjectPath.problem(in: text) ?? "")")
        self.rawValue = text
    }

    /// For values already validated (by libdbus on receipt, or by this type).
    init(validated rawValue: String) {
        self.rawValue = rawValue
    }

    public static let root = ObjectPath(trusted: "/")

    public var description: String { rawValue }

    public static func < (lhs: ObjectPath, rhs: ObjectPath) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The path elements (`/a/b` → `["a", "b"]`; `/` → `[]`).
    public var elements: [Substring] {
        rawValue.split(separator: "/")
    }

    /// `self` with one more element; throws if `element` is not a valid path element.
    public func appending(_ element: String) throws(DBusError) -> ObjectPath {
        try ObjectPath(rawValue == "/" ? "/" + element : rawValue + "/" + element)
    }

    /// The path one element up (`/a/b` → `/a`, `/a` → `/`); nil for `/`.
    public var parent: ObjectPath? {
        guard rawValue != "/" else { return nil }
        return ObjectPath(validated: "/" + elements.dropLast().joined(separator: "/"))
    }

    /// Whether `self` lies strictly below `ancestor`.
    public func isDescendant(of ancestor: ObjectPath) -> Bool {
        if ancestor.rawValue == "/" { return rawValue != "/" }
        return rawValue.hasPrefix(ancestor.rawValue + "/")
    }

    static func problem(in text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return "it must start with '/'" }
        if bytes.count == 1 { return nil }
        guard bytes.last != UInt8(ascii: "/") else { return "it must not end with '/'" }
        var previousWasSlash = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return "it has an empty element ('//')" }
                previousWasSlash = true
                continue
            }
            previousWasSlash = false
            let ok = (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_")
            if !ok { return "only [A-Za-z0-9_] may appear between slashes" }
        }
        return nil
    }
}
