import SystemContext

/// What the values of flags may be — one rule per kind of value, used alike for a flag on the
/// command line and for its default in the configuration file. Each returns why a value is bad
/// (completing "--flag …" or "play.flag: …"), nil when it is good. Nothing is ever silently changed
/// into another value: what would be changed is refused.
enum ValueRules {
    /// Longest `--name` of a player: `org.mpris.MediaPlayer2.NAME.instancePID` stays well within
    /// the 255 bytes of a bus name.
    static let playerNameLimit = 200
    /// Longest session name shown by `mprisd status`.
    static let sessionNameLimit = 200

    /// One ALSA device name (`default`, `hw:CARD=PCH,DEV=0`, `null`): no blanks, nothing invisible.
    static func device(_ text: String) -> String? {
        let ok = !text.isEmpty && !text.unicodeScalars.contains { $0 == " " || isInvisible($0) }
        return ok ? nil : "takes one device name, not \(Excerpt.quoted(text))"
    }

    /// The application part of an MPRIS bus name as it will be used: letters, digits, `_` and
    /// `-`, not starting with a digit.
    static func playerName(_ text: String) -> String? {
        let scalars = text.unicodeScalars
        let allowed = !scalars.isEmpty && scalars.count <= playerNameLimit
            && scalars.allSatisfy { isASCIILetterOrDigit($0) || $0 == "_" || $0 == "-" }
            && !(scalars.first.map { ("0"..."9").contains($0) } ?? true)
        return allowed ? nil
            : "takes a name of letters, digits, _ and - (not starting with a digit, at most \(playerNameLimit)), not \(Excerpt.quoted(text))"
    }

    /// A display name: printable, at most `sessionNameLimit` characters.
    static func sessionName(_ text: String) -> String? {
        let ok = !text.isEmpty && text.count <= sessionNameLimit && !text.unicodeScalars.contains(where: isInvisible)
        return ok ? nil : "takes a printable name of at most \(sessionNameLimit) characters, not \(Excerpt.quoted(text))"
    }

    /// `0.5`, `1`, `.25`, `0`: plain decimal digits with at most one point, from 0 to 1. No sign,
    /// exponent, hex float, nan or inf — nothing whose value is not what it reads.
    static func volume(_ text: String) -> String? {
        parseVolume(text) == nil ? "takes a number from 0 to 1 like 0.5, not \(Excerpt.quoted(text))" : nil
    }

    static func parseVolume(_ text: String) -> Double? {
        let scalars = text.unicodeScalars
        let digits = scalars.filter { ("0"..."9").contains($0) }.count
        let points = scalars.filter { $0 == "." }.count
        guard digits > 0, digits + points == scalars.count, points <= 1, scalars.count <= 32,
              let value = Double(text), (0...1).contains(value) else { return nil }
        return value
    }

    /// One of `allowed`.
    static func choice(_ allowed: [String]) -> (String) -> String? {
        { text in allowed.contains(text) ? nil : "takes one of \(allowed.joined(separator: ", ")), not \(Excerpt.quoted(text))" }
    }

    private static func isASCIILetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: true
        default: false
        }
    }
}
