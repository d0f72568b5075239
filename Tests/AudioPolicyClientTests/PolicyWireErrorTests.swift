@testable import AudioPolicyClient
import SessionCore
import XCTest

/// Every `SessionError` survives the trip through a D-Bus error reply, `badParam` details included.
final class PolicyWireErrorTests: XCTestCase {
    func testEveryBadParameterComesBackExactly() {
        let details: [BadParameter] = [
            .optionNotAllowed(option: .duckOthers, category: .record),
            .optionNotValidHere(.notifyOthersOnDeactivation),
            .optionNotValidHere(.allowDelayedActivation),
            .optionNotValidHere(.alongsideOthers),
            .optionNotValidHere([.allowDelayedActivation, .alongsideOthers]),
            .unknownSession(SessionID(rawValue: 42)),
            .unknownPort("usb-dac"),
            .valueOutOfRange(1.5),
            .reasonNotReportable(.override),
        ]
        for detail in details {
            let error = SessionError.badParam(detail)
            XCTAssertEqual(PolicyWire.sessionError(PolicyWire.dbusError(error), fallback: .unknownPort("?")), error,
                           "\(detail)")
        }
    }

    func testEveryOtherCaseComesBack() {
        for error in [SessionError.isBusy, .insufficientPriority, .cannotStartPlaying, .cannotStartRecording,
                      .sessionNotActive, .mediaServicesFailed] {
            XCTAssertEqual(PolicyWire.sessionError(PolicyWire.dbusError(error), fallback: .unknownPort("?")), error)
        }
    }
}
