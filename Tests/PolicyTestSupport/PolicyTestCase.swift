import AudioPolicyClient
import AudioPolicyDaemon
import DBus
import Foundation
import SessionCore
import TestSupport
import XCTest

/// A private bus with the policy service running in-process (as `mprisd` runs it: its own
/// connection, owning `org.mprisd.AudioPolicy`), and clients on other connections.
open class PolicyTestCase: BusTestCase {
    /// One running daemon.
    public struct Daemon {
        public let connection: Connection
        public let system: AudioSystem
        public let service: PolicyService
        public let log: EventRecord<String>
    }

    private var services: [PolicyService] = []
    private var clients: [PolicyClient] = []
    private var keep: [EventSubscription] = []

    override open func tearDown() {
        for client in clients { client.close() }
        for service in services { service.close() }
        clients = []
        services = []
        keep = []
        super.tearDown()
    }

    /// Starts a service on a new connection and requests the name, like the daemon command.
    public func startDaemon(system: AudioSystem = AudioSystem(),
                     statusExtras: @escaping @Sendable (inout PolicyStatus) -> Void = { _ in }) throws -> Daemon {
        let connection = try connect()
        let log = EventRecord<String>()
        let service = PolicyService(connection: connection, system: system, log: { log.append($0) },
                                    statusExtras: statusExtras)
        services.append(service)
        try service.start()
        XCTAssertEqual(try connection.requestNameAndWait(AudioPolicyNames.busName, flags: .doNotQueue), .primaryOwner)
        return Daemon(connection: connection, system: system, service: service, log: log)
    }

    /// A client on a connection of its own.
    public func makeClient() throws -> PolicyClient {
        let client = try PolicyClient(connection: try connect())
        clients.append(client)
        return client
    }

    /// Records every event of `session` (the subscription lives until tearDown).
    public func record(_ session: RemoteSession) -> EventRecord<SessionEvent> {
        let events = EventRecord<SessionEvent>()
        keep.append(session.onEvent { events.append($0) })
        return events
    }

    /// A registered session of category playback (with `options`) on a new client.
    public func playbackSession(_ name: String, options: SessionOptions = []) throws -> (RemoteSession, EventRecord<SessionEvent>) {
        let session = try makeClient().register(SessionConfiguration(.playback, options: options), name: name)
        return (session, record(session))
    }

    /// The daemon's status document, read by a fresh connection.
    public func status() throws -> PolicyStatus {
        let reply = try connect().callAndWait(.methodCall(destination: AudioPolicyNames.busName,
                                                         path: AudioPolicyNames.objectPath,
                                                         interface: AudioPolicyNames.interface,
                                                         member: "GetStatus", body: []), timeout: .seconds(5))
        guard case .string(let json)? = reply.body.first else { throw TestSupportError("GetStatus: \(reply.body)") }
        return try JSONDecoder().decode(PolicyStatus.self, from: Data(json.utf8))
    }

    /// `busctl --user call` on the test bus.
    public func busctl(_ arguments: [String]) async throws -> ProgramResult {
        try await tool("busctl", ["--user", "call", AudioPolicyNames.busName] + arguments)
    }
}

extension EventRecord where Element == SessionEvent {
    /// Waits until `event` was recorded `count` times.
    public func wait(for event: SessionEvent, count: Int = 1, timeout: Duration = .seconds(5)) async throws {
        try await wait(for: "\(event) ×\(count)", timeout: timeout) { events in
            events.filter { $0 == event }.count >= count ? true : nil
        }
    }
}

extension EventRecord where Element == String {
    /// Waits for a log line containing `text`.
    public func wait(forLine text: String) async throws {
        try await wait(for: "log line '\(text)'", timeout: .seconds(5)) { lines in
            lines.contains { $0.contains(text) } ? true : nil
        }
    }
}
