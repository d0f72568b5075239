import AudioDevices
@testable import Player
import XCTest

/// Paths given as bytes that are not UTF-8 reach `open` unchanged and show as U+FFFD.
final class ArgumentBytesTests: XCTestCase {
    func testRepairedArgumentsAreMatchedBackToTheirBytesInOrder() {
        let first: [UInt8] = Array("/m/a".utf8) + [0xFF] + Array(".wav".utf8)
        let second: [UInt8] = Array("/m/a".utf8) + [0xFE] + Array(".wav".utf8)
        let argv = [Array("mprisd".utf8), Array("play".utf8), first, Array("/m/ok.wav".utf8), second]
        let shown = argv.map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(shown[2], shown[4], "both repair to the same text")
        let paths = ArgumentBytes.recover([shown[2], shown[3], shown[4]], argv: argv)
        XCTAssertEqual(paths.map(\.bytes), [first, Array("/m/ok.wav".utf8), second])
        XCTAssertEqual(paths[0].description, "/m/a\u{FFFD}.wav")
        XCTAssertFalse(paths[0].isValidUTF8)
        XCTAssertEqual(ArgumentBytes.recover(["/not/in/argv\u{FFFD}"], argv: argv).first?.description, "/not/in/argv\u{FFFD}")
    }

    func testURLsKeepTheExactBytes() {
        let path = MediaPath(bytes: Array("/m/a b".utf8) + [0xFF] + Array(".wav".utf8))
        XCTAssertEqual(FileURL.string(forPath: path), "file:///m/a%20b%FF.wav")
    }
}
