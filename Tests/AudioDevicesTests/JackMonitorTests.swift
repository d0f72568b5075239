import AudioDevices
import CALSA
import Foundation
import SessionCore
import TestSupport
import XCTest

/// Jacks through real alsa-lib: the fake card (an external control plugin over a state file) is the
/// sound card, the test plugs and unplugs by rewriting the file.
final class JackMonitorTests: XCTestCase {
    private var card: FakeSoundCard!

    override func setUpWithError() throws {
        card = try FakeSoundCard(FakeSoundCard.State(headphones: true, headsetMic: false, volume: (60, 60)))
        FakeCardConfig.activate(card)
    }

    override func tearDown() {
        FakeCardConfig.deactivate()
        card = nil
    }

    private func monitor(_ record: EventRecord<JackChange>) throws -> JackMonitor {
        try JackMonitor(control: FakeSoundCard.control) { record.append($0) }
    }

    func testTheInitialStateIsRead() throws {
        let monitor = try monitor(EventRecord())
        defer { monitor.stop() }
        XCTAssertEqual(monitor.ports.map(\.name), ["Headphone", "Headset Mic"])
        XCTAssertEqual(monitor.ports.map(\.type), [.headphones, .headsetMic])
        XCTAssertEqual(monitor.ports.map(\.id), ["fake:Headphone Jack", "fake:Headset Mic Jack"])
        XCTAssertEqual(monitor.pluggedPorts.map(\.type), [.headphones])
    }

    func testUnplugAndPlugArriveAsCallbacksWithTheirPortType() async throws {
        let record = EventRecord<JackChange>()
        let monitor = try monitor(record)
        defer { monitor.stop() }

        try card.setHeadphones(plugged: false)
        let unplug = try await record.wait(for: "headphones unplugged", timeout: .seconds(5)) { $0.first }
        XCTAssertEqual(unplug.port.type, .headphones)
        XCTAssertFalse(unplug.plugged)
        XCTAssertEqual(monitor.pluggedPorts, [])

        try card.setHeadsetMic(plugged: true)
        let mic = try await record.wait(for: "headset mic plugged", timeout: .seconds(5)) { $0.count >= 2 ? $0[1] : nil }
        XCTAssertEqual(mic, JackChange(port: AudioPort(id: "fake:Headset Mic Jack", name: "Headset Mic", type: .headsetMic),
                                       plugged: true))

        try card.setHeadphones(plugged: true)
        let plug = try await record.wait(for: "headphones plugged", timeout: .seconds(5)) { $0.count >= 3 ? $0[2] : nil }
        XCTAssertEqual(plug.port.type, .headphones)
        XCTAssertTrue(plug.plugged)
        XCTAssertEqual(Set(monitor.pluggedPorts.map(\.type)), [.headphones, .headsetMic])
        XCTAssertEqual(record.elements.count, 3, "one callback per change: \(record.elements)")
    }

    func testACardElementThatIsNotAJackIsIgnored() async throws {
        let record = EventRecord<JackChange>()
        let monitor = try monitor(record)
        defer { monitor.stop() }
        XCTAssertFalse(monitor.ports.contains { $0.name.contains("Dock") })

        try card.setDockMute(true)
        try card.setHeadphones(plugged: false)
        // The dock change was written first: had it been reported, it would come first.
        let changes = try await record.wait(for: "headphones unplugged", timeout: .seconds(5)) { elements in
            elements.contains { $0.port.type == .headphones } ? elements : nil
        }
        XCTAssertEqual(changes.map(\.port.name), ["Headphone"])
    }

    func testTheMonitorNeverWritesTheCard() async throws {
        // The plugin replaces the file (a new inode) on every write through alsa-lib.
        let created = try FileIdentity(card.statePath)
        let record = EventRecord<JackChange>()
        let monitor = try monitor(record)
        XCTAssertEqual(try FileIdentity(card.statePath), created, "opening the monitor wrote the card")
        try card.setHeadsetMic(plugged: true)
        let written = try FileIdentity(card.statePath)
        try await record.wait(for: "headset mic plugged", timeout: .seconds(5)) { $0.first }
        monitor.stop()

        XCTAssertEqual(try FileIdentity(card.statePath), written, "following the change wrote the card")
        XCTAssertEqual(try card.state(), FakeSoundCard.State(headphones: true, headsetMic: true, volume: (60, 60)))
    }

    func testAControlDeviceThatDoesNotExistIsAClearError() {
        XCTAssertThrowsError(try JackMonitor(control: "nosuchcard") { _ in }) { error in
            guard case ALSAControlError.deviceUnavailable(let control, let reason) = error else {
                return XCTFail("not deviceUnavailable: \(error)")
            }
            XCTAssertEqual(control, "nosuchcard")
            XCTAssertTrue(reason.contains("nosuchcard"), reason)
            XCTAssertTrue("\(error)".hasPrefix("control device nosuchcard: cannot open: "), "\(error)")
        }
    }

    func testTheMonitorThreadDoesNotWakeWhileNothingChanges() throws {
        let monitor = try monitor(EventRecord())
        defer { monitor.stop() }
        let thread = try XCTUnwrap(ThreadSwitches.thread(named: "jack-monitor"), "the monitor's thread")
        let first = ThreadSwitches.count(thread)
        Thread.sleep(forTimeInterval: 1)  // time is the subject here: an idle second
        let second = ThreadSwitches.count(thread)
        XCTAssertNotNil(first)
        XCTAssertEqual(first, second, "context switches of the idle monitor thread over 1 s")
    }

    func testThePortTypeOfAJackName() {
        XCTAssertEqual(JackNames.portType(forJack: "Headphone Jack"), .headphones)
        XCTAssertEqual(JackNames.portType(forJack: "Front Headphone Jack"), .headphones)
        XCTAssertEqual(JackNames.portType(forJack: "Headset Mic Jack"), .headsetMic)
        XCTAssertEqual(JackNames.portType(forJack: "Mic Jack"), .headsetMic)
        XCTAssertEqual(JackNames.portType(forJack: "Line Out Jack"), .lineOut)
        XCTAssertEqual(JackNames.portType(forJack: "HDMI/DP,pcm=3 Jack"), .hdmi)
        XCTAssertEqual(JackNames.portType(forJack: "Speaker Phantom Jack"), .lineOut)
    }

    func testTheControlDeviceOfAPCM() {
        XCTAssertEqual(ControlName.forPCM("hw:0"), "hw:0")
        XCTAssertEqual(ControlName.forPCM("hw:1,0"), "hw:1")
        XCTAssertEqual(ControlName.forPCM("plughw:2,3"), "hw:2")
        XCTAssertEqual(ControlName.forPCM("hw:CARD=PCH,DEV=0"), "hw:PCH")
        XCTAssertEqual(ControlName.forPCM("default"), "default")
        XCTAssertNil(ControlName.forPCM("pulse"))
        XCTAssertNil(ControlName.forPCM("capture:FILE=\"/tmp/x\""))
    }
}

/// Points this process's alsa-lib at a fake card's configuration, like `ALSATestConfig` does for
/// the capture PCM: sets ALSA_CONFIG_PATH and drops alsa-lib's cached configuration tree.
enum FakeCardConfig {
    // Touched only from setUp/tearDown, which XCTest runs one at a time on its one test thread.
    private nonisolated(unsafe) static var previous: String?

    static func activate(_ card: FakeSoundCard) {
        previous = ProcessInfo.processInfo.environment["ALSA_CONFIG_PATH"]
        setenv("ALSA_CONFIG_PATH", card.configPath, 1)
        snd_config_update_free_global()
    }

    static func deactivate() {
        if let previous { setenv("ALSA_CONFIG_PATH", previous, 1) } else { unsetenv("ALSA_CONFIG_PATH") }
        previous = nil
        snd_config_update_free_global()
    }
}

/// Context switches of one thread of this process (`/proc/self/task/TID/status`): how often it woke.
enum ThreadSwitches {
    /// The id of the thread whose name (`comm`) is `name`, once it sleeps (state `S`): the thread
    /// names itself when it starts, then blocks; this waits up to 2 s for both (no event to wait on).
    static func thread(named name: String) -> String? {
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            let found = tasks.first { task in
                let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                return comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name
            }
            if let found, sleeping(found) { return found }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    private static func sleeping(_ tid: String) -> Bool {
        let text = (try? String(contentsOfFile: "/proc/self/task/\(tid)/status", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").contains { $0.hasPrefix("State:") && $0.contains("S (sleeping)") }
    }

    /// Voluntary plus involuntary context switches of thread `tid` so far.
    static func count(_ tid: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/task/\(tid)/status", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").filter { $0.contains("ctxt_switches") }.reduce(0) { total, line in
            total + (Int(line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? 0)
        }
    }
}

/// A file's inode and contents: equal only if nobody replaced or rewrote it.
struct FileIdentity: Equatable {
    let inode: UInt
    let bytes: Data

    init(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
        inode = UInt(status.st_ino)
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
