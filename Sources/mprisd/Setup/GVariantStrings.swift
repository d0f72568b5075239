/// GVariant text of a string array (`['XF86AudioPlay', '<Ctrl>XF86AudioPlay']`, `@as []`), the
/// form dconf keeps GNOME's shortcut lists in — read and written for these lists only.
enum GVariantStrings {
    /// The strings of `text`; nil for text that is not a string array.
    static func parse(_ text: String) -> [String]? {
        var rest = Substring(text).drop { $0 == " " }
        if rest.hasPrefix("@as") { rest = rest.dropFirst(3).drop { $0 == " " } }
        guard rest.first == "[" else { return nil }
        rest = rest.dropFirst()
        var strings: [String] = []
        while true {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let first = rest.first else { return nil }
            if first == "]" { return rest.dropFirst().allSatisfy { $0 == " " } ? strings : nil }
            guard first == "'" || first == "\"" else { return nil }
            rest = rest.dropFirst()
            var string = ""
            var closed = false
            while let character = rest.popFirst() {
                if character == "\\" {
                    guard let escaped = rest.popFirst() else { return nil }
                    string.append(escaped)
                } else if character == first {
                    closed = true
                    break
                } else {
                    string.append(character)
                }
            }
            guard closed else { return nil }
            strings.append(string)
        }
    }

    /// `strings` as GVariant text, typed when empty (`@as []`) so dconf knows the type.
    static func text(_ strings: [String]) -> String {
        guard !strings.isEmpty else { return "@as []" }
        return "[" + strings.map(quoted).joined(separator: ", ") + "]"
    }

    /// A string as GVariant text.
    static func quoted(_ string: String) -> String {
        "'" + string.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
