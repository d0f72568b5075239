import Posix
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Errors name the failure in words, as every other message of the program does (`strerror`), not
/// as a bare `errno` number.
final class PosixErrorTests: XCTestCase {
    func testDescriptionSaysTheReasonInWords() {
        XCTAssertEqual(close(-1), -1)
        let error = PosixError("close", code: errno)
        XCTAssertEqual(error.description, "close failed: Bad file descriptor")
        XCTAssertEqual(PosixError("eventfd", code: EMFILE).description, "eventfd failed: Too many open files")
        XCTAssertFalse(error.description.contains("errno"))
    }
}
