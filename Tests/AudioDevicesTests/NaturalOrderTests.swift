@testable import AudioDevices
import XCTest

final class NaturalOrderTests: XCTestCase {
    func testNumbersCompareByValueAndLettersIgnoreCase() {
        let names = ["track10.flac", "Track2.flac", "track1.flac", "b/01.flac", "a/2.flac", "a/10.flac", "track02b.flac"]
        XCTAssertEqual(names.sorted(by: NaturalOrder.pathPrecedes),
                       ["a/2.flac", "a/10.flac", "b/01.flac", "track1.flac", "Track2.flac", "track02b.flac", "track10.flac"])
    }
}
