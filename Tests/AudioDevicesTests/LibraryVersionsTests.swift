import AudioDevices
import XCTest

final class LibraryVersionsTests: XCTestCase {
    func testTheLinkedLibrariesReportTheirVersions() {
        XCTAssertTrue(LibraryVersions.alsa.first?.isNumber == true, LibraryVersions.alsa)
        XCTAssertTrue(LibraryVersions.alsa.split(separator: ".").count >= 2, LibraryVersions.alsa)
        XCTAssertTrue(LibraryVersions.sndfile.hasPrefix("libsndfile-"), LibraryVersions.sndfile)
    }
}
