import DBus
import Foundation
import TestSupport
import XCTest

/// The policy daemon (a real `mprisd` process on a private bus) under hostile input: every method
/// and property its objects declare (read from `Introspect`, so new members are covered without
/// editing this test) called with wrong signatures, wrong types, edge values, megabyte strings,
/// 100,000-element arrays and the deepest variants libdbus carries; then seeded random calls and
/// byte-level mutations of valid calls through a raw socket. The daemon answers every call, a
/// refused call leaves its state as it was, and it is alive and serving at the end.
final class FuzzDaemonTests: PlayerTestCase {
    private static let seed: UInt64 = 0x6D70_7269_7364_0001

    func testEveryMemberAnswersHostileCallsAndSurvivesMutatedMessages() async throws {
        let started = ContinuousClock.now
        let watcher = try connect()
        let daemon = try await startDaemon(watcher: watcher)
        let targetName = await owner(of: Self.policyName, on: watcher)
        let target = try XCTUnwrap(targetName)
        let fuzz = try connect()
        let policyPath = try ObjectPath(Self.policyPath)
        // A session the fuzzing connection owns (its methods get past the owner check) and one it
        // does not (every call there must be AccessDenied and change nothing).
        func register(_ connection: Connection, _ name: String) async throws -> ObjectPath {
            let reply = try await connection.call(destination: Self.policyName, path: policyPath,
                                                  interface: "org.mprisd.AudioPolicy1", member: "Register",
                                                  [.dictionary(key: .string, value: .variant, [
                                                      DictionaryEntry(.string("category"), .variant(.string("playback"))),
                                                      DictionaryEntry(.string("name"), .variant(.string(name)))])])
            guard case .objectPath(let path)? = reply.first else { throw TestSupportError("Register: \(reply)") }
            return path
        }
        let ownPath = try await register(fuzz, "fuzzer")
        let foreignPath = try await register(try connect(), "bystander")

        let objects = try await IntrospectedObject.walk(fuzz, destination: target, from: .root)
        let members = Set(objects.flatMap { $0.methods.map { "\($0.interface).\($0.name)" } })
        for expected in ["org.mprisd.AudioPolicy1.Register", "org.mprisd.AudioPolicy1.GetStatus",
                         "org.mprisd.AudioSession1.Activate", "org.mprisd.AudioSession1.Unregister"] {
            XCTAssertTrue(members.contains(expected), "introspection lists \(expected): \(members.sorted())")
        }
        XCTAssertTrue(objects.contains { $0.path == ownPath } && objects.contains { $0.path == foreignPath })

        // The status document holds every session's state and every policy property but the version.
        let snapshot: () async throws -> String = { try await self.policyStatusText(fuzz) }
        let fuzzer = CallFuzzer(connection: fuzz, destination: target, seed: Self.seed,
                                onlyMalformed: ["Unregister"], snapshot: snapshot)
        var templates: [Message] = []
        for object in objects { templates += fuzzer.cases(for: object) }
        templates += fuzzer.randomCases(objects, count: 1000)
        for message in templates { try await fuzzer.run(message) }
        let typedTime = ContinuousClock.now - started
        XCTAssertTrue(daemon.isRunning, "the daemon died during the typed fuzz: \(daemon.stderr.suffix(2000))")

        var mutations = ByteMutationFuzzer(address: bus.address, target: target, seed: Self.seed)
        try mutations.run(templates: templates, rounds: 2000)

        // Alive, serving, and its own objects still answer.
        XCTAssertTrue(daemon.isRunning, "the daemon died: \(daemon.stderr.suffix(2000))")
        _ = try await watcher.call(destination: target, path: .root, interface: "org.freedesktop.DBus.Peer", member: "Ping",
                                   timeout: .seconds(5))
        let status = try await policyStatus(watcher)
        XCTAssertEqual(status["version"] as? Int, 1)
        let names = (status["sessions"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertTrue(names.contains("bystander"), "the bystander's session is untouched: \(names)")
        XCTAssertGreaterThan(fuzzer.counts.errors, templates.count / 2, "most hostile calls are refused")
        XCTAssertGreaterThan(mutations.counts.answeredByTarget, 0, "some mutated messages reached the daemon")
        let total = fuzzer.counts.calls + mutations.counts.sent
        print("fuzz: \(total) cases against the daemon: \(fuzzer.counts); \(mutations.counts); "
              + "\(objects.count) objects, \(members.count) methods; typed \(typedTime), all \(ContinuousClock.now - started)")
        print("fuzz: daemon error replies by name: \(fuzzer.counts.errorNames.sorted { $0.key < $1.key })")
    }
}
