import DBus
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Losing the bus is an event, never a process exit; every waiter is released.
final class DisconnectTests: BusTestCase {
    func testBusDeathIsAnEventAndCallsFailCleanly() async throws {
        let entered = ValueBox(false)
        let (server, _) = try await service("org.mprisd.Dies", [
            Interface("org.mprisd.Test", methods: [.task("Hang") { _ in
                entered.value.withLock { $0 = true }
                // time is the subject here: a call that is still outstanding when the bus dies
                try? await Task.sleep(for: .seconds(30))
                return []
            }]),
        ])
        let client = try connect()
        let events = client.events()
        let hanging = Task {
            try await client.call(destination: "org.mprisd.Dies", path: try ObjectPath("/org/mprisd/Test"),
                                  interface: "org.mprisd.Test", member: "Hang")
        }
        let outstanding = await eventually { entered.current }
        XCTAssertTrue(outstanding, "the call never reached the service")
        kill(bus.pid, SIGKILL)

        var sawDisconnect = false
        for await event in events where event == .disconnected {
            sawDisconnect = true
        }
        XCTAssertTrue(sawDisconnect, "the stream reports the disconnection, then finishes")
        do {
            _ = try await hanging.value
            XCTFail("the outstanding call must fail")
        } catch let error as DBusError {
            XCTAssertFalse(error.name.isEmpty)
        }
        do {
            _ = try await client.listNames()
            XCTFail("calls after disconnection must fail")
        } catch {
            XCTAssertEqual(error.name, DBusError.Name.disconnected)
        }
        XCTAssertThrowsError(try client.send(.signal(path: .root, interface: "org.x.Y", member: "Z")))
        _ = server
    }

    func testCloseFinishesStreamsAndFailsLaterCalls() async throws {
        let connection = try connect()
        let events = connection.events()
        connection.close()
        var last: ConnectionEvent?
        for await event in events { last = event }
        XCTAssertEqual(last, .disconnected)
        do {
            _ = try await connection.listNames()
            XCTFail("expected Disconnected")
        } catch {
            XCTAssertEqual(error.name, DBusError.Name.disconnected)
        }
    }

    func testUnreachableAddressIsAThrownError() {
        XCTAssertThrowsError(try Connection(address: "unix:path=/nonexistent/socket")) { error in
            XCTAssertNotNil(error as? DBusError)
        }
    }
}
