import DBus
import Glibc
import Posix
import TestSupport
import XCTest

/// A connection whose `poll()` fails for real ends, as when the bus goes away, instead of going
/// round at once and spinning a core forever.
final class LoopFailureTests: BusTestCase {
    func testAFailingPollEndsTheConnection() throws {
        let connection = try connect()
        let disconnected = Latch<Void>()
        connection.onEvent { if $0 == .disconnected { disconnected.open() } }
        let answer = Latch<Result<Message, DBusError>>()
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved)
        var lowered = saved
        // The loop polls its wake event and the bus socket: more than one descriptor is EINVAL.
        lowered.rlim_cur = 1
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered)
        connection.call(.methodCall(destination: "org.freedesktop.DBus", path: try ObjectPath("/org/freedesktop/DBus"),
                                    interface: "org.freedesktop.DBus", member: "GetId")) { answer.open(with: $0) }
        let ended = disconnected.wait(timeout: .seconds(2)) != nil
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved)
        XCTAssertTrue(ended, "the connection did not end")
        guard case .failure(let error)? = answer.wait(timeout: .seconds(2)) else {
            return XCTFail("the call was not failed")
        }
        XCTAssertEqual(error.name, DBusError.Name.disconnected)
    }
}
