import DBus
import Posix
import TestSupport
import XCTest

/// `Method.deferred`: answered later, from any thread, once — the daemon's `Control` forwards a
/// call to a player and answers with the player's outcome, without Swift concurrency.
final class DeferredMethodTests: BusTestCase {
    func testADeferredMethodAnswersFromAnotherThreadOnceAndPassesErrorsOn() async throws {
        let server = try connect()
        let client = try connect()
        _ = try server.export(try ObjectPath("/deferred"), interfaces: [
            Interface("org.mprisd.Test", methods: [
                .deferred("Later", inputs: [Argument("text", .string)], outputs: [Argument("echo", .string)]) { call, reply in
                    let text = (try? call.argument(0, as: String.self)) ?? ""
                    do {
                        try NamedThread.detached(name: "deferred-reply") {
                            if text == "fail" { return reply(.failure(DBusError.accessDenied("refused later"))) }
                            reply(.success([.string("later: " + text)]))
                            reply(.success([.string("a second answer is dropped")]))
                        }
                    } catch {
                        reply(.failure(error))
                    }
                },
            ]),
        ])
        let answer = try await client.call(destination: server.uniqueName, path: try ObjectPath("/deferred"),
                                           interface: "org.mprisd.Test", member: "Later", [.string("hi")])
        XCTAssertEqual(answer, [.string("later: hi")])
        do {
            _ = try await client.call(destination: server.uniqueName, path: try ObjectPath("/deferred"),
                                      interface: "org.mprisd.Test", member: "Later", [.string("fail")])
            XCTFail("the handler's error is the reply")
        } catch {
            XCTAssertEqual(error.name, DBusError.Name.accessDenied)
            XCTAssertEqual(error.message, "refused later")
        }
        // The connection still answers in order after the dropped second answer.
        let again = try await client.call(destination: server.uniqueName, path: try ObjectPath("/deferred"),
                                          interface: "org.mprisd.Test", member: "Later", [.string("again")])
        XCTAssertEqual(again, [.string("later: again")])
    }
}
