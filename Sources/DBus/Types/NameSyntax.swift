/// Syntax checks for bus, interface and member names (D-Bus specification, "Valid names").
///
/// Outgoing headers are checked here so a bad name is a thrown error instead of a libdbus
/// warning; names received from the bus were already validated by libdbus.
public enum NameSyntax {
    /// `org.example.Iface`: two or more dot-separated elements of `[A-Za-z_][A-Za-z0-9_]*`, ≤ 255.
    public static func isInterfaceName(_ name: String) -> Bool {
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.utf8.count <= 255 && elements.count >= 2
            && elements.allSatisfy { isElement($0, allowLeadingDigit: false, allowDash: false) }
    }

    /// `Member`: one element of `[A-Za-z_][A-Za-z0-9_]*`, ≤ 255.
    public static func isMemberName(_ name: String) -> Bool {
        name.utf8.count <= 255 && isElement(Substring(name), allowLeadingDigit: false, allowDash: false)
    }

    /// A unique (`:1.42`) or well-known (`org.mpris.MediaPlayer2.x`) bus name.
    public static func isBusName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255 else { return false }
        if name.hasPrefix(":") {
            let elements = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
            return elements.count >= 2 && elements.allSatisfy { isElement($0, allowLeadingDigit: true, allowDash: true) }
        }
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        return elements.count >= 2 && elements.allSatisfy { isElement($0, allowLeadingDigit: false, allowDash: true) }
    }

    private static func isElement(_ element: Substring, allowLeadingDigit: Bool, allowDash: Bool) -> Bool {
        guard let first = element.utf8.first else { return false }
        if !allowLeadingDigit, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") { return false }
        return element.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || (allowDash && byte == UInt8(ascii: "-"))
        }
    }
}
