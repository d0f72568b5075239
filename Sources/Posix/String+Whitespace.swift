/// The two text helpers the daemon and its clients took from Foundation's internationalization
/// part, without it: with `import FoundationEssentials` alone a static build leaves out ICU and its
/// data (about 30 MB of the packaged binary, issue 17).
extension StringProtocol {
    /// The text without leading and trailing whitespace (`Character.isWhitespace`: spaces, tabs,
    /// newlines), as `trimmingCharacters(in: .whitespacesAndNewlines)`.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }

    /// Exactly `length` characters: cut, or filled with spaces on the right (as Foundation's
    /// `padding(toLength:withPad:" ",startingAt:0)`, counting characters rather than UTF-16 units).
    public func padded(toLength length: Int) -> String {
        let wanted = Swift.max(0, length)
        let kept = prefix(wanted)
        return String(kept) + String(repeating: " ", count: wanted - kept.count)
    }
}
