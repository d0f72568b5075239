import AudioServer
import XCTest

/// libpulse is loaded on first use (`PulseLibrary`): the installed one has every `pa_*` function
/// the link calls, so the check the link makes before connecting passes on this machine.
final class PulseLibraryTests: XCTestCase {
    func testTheInstalledLibpulseHasEveryFunctionTheLinkCalls() {
        XCTAssertNil(PulseLibrary.unavailableReason)
    }
}
