import Posix
import XCTest

/// The one sanitizer for text on its way to a terminal or a log line.
final class TerminalTextTests: XCTestCase {
    func testControlCharactersBecomeVisibleEscapes() {
        XCTAssertEqual(TerminalText.sanitized("a\u{1B}]0;pwned\u{07}b\u{1B}[2J\nc\td\u{7F}\u{9B}e\u{2028}"),
                       "a\\x1b]0;pwned\\x07b\\x1b[2J\\x0ac\\x09d\\x7f\\x9be\\u2028")
    }

    func testOrdinaryTextIsUnchanged() {
        for text in ["", "Song — Artist", "日本語 ♪ ü", "a\u{FFFD}b"] {
            XCTAssertEqual(TerminalText.sanitized(text), text)
        }
    }

    func testAbsurdLengthsAreCut() {
        let long = String(repeating: "x", count: 5000)
        XCTAssertEqual(TerminalText.sanitized(long, maxLength: 10), String(repeating: "x", count: 10) + "…")
        XCTAssertEqual(TerminalText.sanitized(long).count, TerminalText.defaultMaxLength + 1)
        XCTAssertEqual(TerminalText.sanitized("abc", maxLength: 3), "abc")
        // An escape is never cut in half.
        XCTAssertEqual(TerminalText.sanitized("ab\u{1B}", maxLength: 4), "ab…")
    }

    /// A quoted bad value shows what a reader could not see, escaped like everything else.
    func testVisibleAlsoEscapesWhatShowsAsNothing() {
        XCTAssertEqual(TerminalText.visible("a\u{A0}b\u{200B}c\u{301}d\u{FFFD}\u{1B}", maxLength: 40),
                       "a\\xa0b\\u200bc\\u301d\\ufffd\\x1b")
        XCTAssertEqual(TerminalText.visible("café 日本", maxLength: 40), "café 日本")
        XCTAssertEqual(TerminalText.visible("abcdef", maxLength: 3), "abc…")
    }
}

/// The two helpers that replaced Foundation's `trimmingCharacters` and `padding` (issue 17).
final class StringWhitespaceTests: XCTestCase {
    func testTrimmingWhitespace() {
        XCTAssertEqual("  firefox \t".trimmingWhitespace(), "firefox")
        XCTAssertEqual("mpris-proxy\n".trimmingWhitespace(), "mpris-proxy")
        XCTAssertEqual(" a b ".trimmingWhitespace(), "a b", "inner spaces stay")
        XCTAssertEqual(" \n\t ".trimmingWhitespace(), "")
        XCTAssertEqual("".trimmingWhitespace(), "")
        XCTAssertEqual("x, y".split(separator: ",").map { $0.trimmingWhitespace() }, ["x", "y"])
    }

    func testPaddedCutsOrFills() {
        XCTAssertEqual("Paused".padded(toLength: 7), "Paused ")
        XCTAssertEqual("Playing".padded(toLength: 7), "Playing")
        XCTAssertEqual("Stopped!".padded(toLength: 7), "Stopped")
        XCTAssertEqual("é".padded(toLength: 3), "é  ")
        XCTAssertEqual("x".padded(toLength: 0), "")
        XCTAssertEqual("x".padded(toLength: -1), "")
    }
}
