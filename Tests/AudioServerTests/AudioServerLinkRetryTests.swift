import AudioServer
import Foundation
import Glibc
import TestSupport
import XCTest

/// A socket that exists but does not accept yet (a server between `bind` and `listen`, or the
/// stale socket of a killed one): the link retries on a bounded backoff, without any inotify
/// event, and then goes quiet.
final class AudioServerLinkRetryTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mprisd-retry-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func testRetriesOnABackoffWhenTheSocketStartsListeningWithoutAnEvent() async throws {
        let path = directory.appendingPathComponent("native").path
        let socket = try BoundSocket(path: path)
        defer { socket.close() }
        let recorder = try LinkRecorder(socket: path)
        defer { recorder.stop() }
        await recorder.waitFor("refused and logged", { _ in !recorder.logLines.isEmpty })
        XCTAssertTrue(recorder.link.absenceReason?.contains("refused") ?? false, recorder.link.absenceReason ?? "nil")
        // Listening now changes nothing in the directory: only a retry of the link's can find it.
        try socket.listen()
        let accepted = await eventually(timeout: .seconds(20)) { socket.acceptOne() }
        XCTAssertTrue(accepted, "the link never tried again")
    }

    /// Issue 24: a socket that accepts and never answers left the link connecting, silent, and
    /// `status` saying "not started". After a bound it says the server is not answering.
    func testASocketThatAcceptsAndNeverAnswersIsSaidToBeNotAnswering() async throws {
        let path = directory.appendingPathComponent("native").path
        let socket = try BoundSocket(path: path)
        defer { socket.close() }
        try socket.listen()  // connections wait in the backlog: accepted, never answered
        let recorder = try LinkRecorder(socket: path)
        defer { recorder.stop() }
        await recorder.waitFor("not answering said", timeout: .seconds(20)) { _ in
            recorder.link.absenceReason?.contains("not answering") ?? false
        }
        XCTAssertEqual(recorder.logLines.count, 1, "\(recorder.logLines)")
        XCTAssertTrue(recorder.logLines.first?.contains("not answering: it accepted the connection and said nothing for 5 s") ?? false,
                      "\(recorder.logLines)")
        XCTAssertFalse(recorder.link.isConnected)
    }

    func testRetriesAreBoundedThenTheThreadSleeps() async throws {
        let path = directory.appendingPathComponent("native").path
        let socket = try BoundSocket(path: path)
        defer { socket.close() }
        // The standard series takes 11.3 s (100 ms … 5 s); a short one of three runs the same code.
        let recorder = try LinkRecorder(socket: path, retryDelays: [.milliseconds(10), .milliseconds(20), .milliseconds(40)])
        defer { recorder.stop() }
        await recorder.waitFor("refused and logged", { _ in !recorder.logLines.isEmpty })
        let link = recorder.link
        let tried = await eventually { link.connectionAttempts == 4 }
        XCTAssertTrue(tried, "\(link.connectionAttempts) attempts, not the first and three retries")
        guard let thread = ProcessThreads.named("mprisd-pulse").first else { return XCTFail("no mprisd-pulse thread") }
        let asleep = await ProcessThreads.waitUntilAsleepInPoll([thread])
        XCTAssertTrue(asleep, "the link's thread did not go to sleep after its last retry")
        let before = try ProcessThreads.contextSwitches(thread)
        // time is the subject here: a retry after the series (its delays are 10–40 ms) would wake the thread
        try await Task.sleep(for: .seconds(1))
        let after = try ProcessThreads.contextSwitches(thread)
        XCTAssertEqual(after - before, 0, "still retrying after the bounded series")
        XCTAssertEqual(link.connectionAttempts, 4, "no attempt after the series")
        XCTAssertEqual(recorder.logLines.count, 1, "one line for the whole absence: \(recorder.logLines)")
    }
}

/// A unix socket bound at a path, listening only when told.
private final class BoundSocket: @unchecked Sendable {  // invariant: used from one test at a time; fd closed once in close()
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw TestSupportError("bind: \(errno)") }
    }

    func listen() throws {
        guard Glibc.listen(fd, 8) == 0 else { throw TestSupportError("listen: \(errno)") }
    }

    /// Whether a connection was waiting (accepted and closed at once).
    func acceptOne() -> Bool {
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return false }
        Glibc.close(client)
        return true
    }

    func close() { Glibc.close(fd) }
}
