import AudioServer
import XCTest

final class ServerAddressTests: XCTestCase {
    func testPulseServerWinsOverTheRuntimeDirectory() {
        XCTAssertEqual(ServerAddress.fromEnvironment(["PULSE_SERVER": "unix:/tmp/x/native", "XDG_RUNTIME_DIR": "/run/user/1"]),
                       .socket(path: "/tmp/x/native"))
        XCTAssertEqual(ServerAddress.fromEnvironment(["PULSE_SERVER": "{abc}unix:/a/b tcp:host"]), .socket(path: "/a/b"))
        XCTAssertEqual(ServerAddress.fromEnvironment(["PULSE_SERVER": "tcp:host:4713"]), .remote("tcp:host:4713"))
    }

    func testTheRuntimeDirectoryIsTheDefault() {
        XCTAssertEqual(ServerAddress.fromEnvironment(["XDG_RUNTIME_DIR": "/run/user/1000"]),
                       .socket(path: "/run/user/1000/pulse/native"))
        guard case .unknown = ServerAddress.fromEnvironment([:]) else { return XCTFail("no address expected") }
    }
}
