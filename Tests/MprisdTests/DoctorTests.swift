import Foundation
import TestSupport
import XCTest

/// `mprisd doctor` (issue 25): each problem staged for real — no daemon, a daemon without its
/// audio server, a player that does not answer (stopped), the real mpris-proxy beside the daemon,
/// the user unit masked or disabled (a stand-in user manager: none runs in a test) — is found,
/// with its fix; once fixed, it is gone, and with nothing in the way the exit status is 0.
final class DoctorTests: ArbiterTestCase {
    private struct Report: Decodable {
        struct Finding: Decodable {
            var check: String
            var level: String
            var summary: String
            var fix: String?
        }

        var problems: Int
        var findings: [Finding]

        func finding(_ check: String) -> Finding? { findings.first { $0.check == check } }
    }

    private var servers: [PulseServer] = []

    override func tearDown() {
        super.tearDown()  // the daemon goes before its server
        for server in servers { server.stop() }
        servers.removeAll()
    }

    /// `mprisd doctor --json`: its exit status and its report.
    private func doctor(file: StaticString = #filePath, line: UInt = #line) async throws -> (status: Int32, report: Report) {
        let result = try await mprisd(["doctor", "--json"])
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(result.status, report.problems == 0 ? 0 : 1, "exit status 0 only with no problem: \(result.stdout)",
                       file: file, line: line)
        XCTAssertEqual(report.problems, report.findings.filter { $0.level == "problem" }.count, file: file, line: line)
        return (result.status, report)
    }

    func testNoDaemonThenNoAudioServerThenNothingInTheWay() async throws {
        var (status, report) = try await doctor()
        XCTAssertEqual(status, 1)
        let missing = try XCTUnwrap(report.finding("daemon"))
        XCTAssertEqual(missing.level, "problem")
        XCTAssertTrue(missing.summary.contains("not running"), missing.summary)
        XCTAssertTrue(missing.fix?.hasPrefix("mprisd &") == true, "no user manager, no activation file: started by hand: \(missing.fix ?? "-")")
        XCTAssertEqual(report.finding("autostart")?.level, "note", "no user manager here")
        let text = try await mprisd(["doctor"])
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stdout.contains("PROBLEM  daemon"), text.stdout)
        XCTAssertTrue(text.stdout.contains("fix: mprisd &"), text.stdout)
        XCTAssertTrue(text.stdout.hasSuffix("1 problem in the way\n"), text.stdout)

        // The fix: a daemon — whose server is not there yet.
        let pulse = try await PulseServer(socketInRuntimeDirectory: true, startNow: false)
        servers.append(pulse)
        let program = try await startDaemon(environment: ["PULSE_SERVER": "", "XDG_RUNTIME_DIR": pulse.runtimeDirectory.path])
        (status, report) = try await doctor()
        XCTAssertEqual(report.finding("daemon")?.level, "ok")
        XCTAssertTrue(report.finding("daemon")?.summary.contains("pid \(program.pid)") == true, "\(report.findings)")
        let server = try XCTUnwrap(report.finding("audio-server"))
        XCTAssertEqual(server.level, "problem")
        XCTAssertTrue(server.summary.contains(pulse.runtimeDirectory.path + "/pulse/native"), server.summary)
        XCTAssertNotNil(server.fix)

        // The fix: the server starts; the daemon finds it by itself.
        try await pulse.start()
        try await waitForStatus("the daemon follows the server") { $0.audioServer?.connected == true }
        (status, report) = try await doctor()
        XCTAssertEqual(report.finding("audio-server")?.level, "ok", "\(report.findings)")
        XCTAssertEqual(status, 0, "nothing in the way: \(report.findings)")
        XCTAssertEqual(report.finding("logind")?.level, "note", "no system bus: a note, not a problem")
        let clean = try await mprisd(["doctor"])
        XCTAssertEqual(clean.status, 0)
        XCTAssertTrue(clean.stdout.hasSuffix("nothing stands in the way\n"), clean.stdout)
    }

    func testAPlayerThatDoesNotAnswerAndMPRISProxyAreFoundUntilGone() async throws {
        let system = try useSystemBus()
        let bluez = try await FakeBluez.start(on: system)
        defer { bluez.stop() }
        try await startDaemon()
        var (_, report) = try await doctor()
        XCTAssertEqual(report.finding("bluetooth")?.level, "ok", "bluetoothd (a stand-in) is on the system bus")
        XCTAssertEqual(report.finding("mpris-proxy")?.level, "ok")
        XCTAssertEqual(report.finding("players")?.level, "ok")

        let fake = try await startFake("frozen", status: "Playing")
        kill(fake.process.pid, SIGSTOP)
        defer { kill(fake.process.pid, SIGCONT) }
        (_, report) = try await doctor()
        let players = try XCTUnwrap(report.finding("players"))
        XCTAssertEqual(players.level, "problem")
        XCTAssertTrue(players.summary.contains("org.mpris.MediaPlayer2.frozen (pid \(fake.process.pid))"), players.summary)
        kill(fake.process.pid, SIGCONT)
        (_, report) = try await doctor()
        XCTAssertEqual(report.finding("players")?.level, "ok", "answers again")
        XCTAssertTrue(report.finding("players")?.summary.contains("(1)") == true, "\(report.findings)")

        let proxy = try await MPRISProxy.start(session: bus, system: system, bluez: bluez)
        (_, report) = try await doctor()
        let found = try XCTUnwrap(report.finding("mpris-proxy"))
        XCTAssertEqual(found.level, "problem")
        XCTAssertTrue(found.summary.contains("mpris-proxy runs (pid "), found.summary)
        XCTAssertTrue(found.fix?.hasPrefix("pkill -x mpris-proxy") == true, "no user manager: \(found.fix ?? "-")")
        proxy.stop()
        (_, report) = try await doctor()
        XCTAssertEqual(report.finding("mpris-proxy")?.level, "ok")
    }

    func testTheUserUnitsStatesComeFromTheUserManager() async throws {
        let manager = try await FakeUserManager.start(on: bus, states: ["mprisd.service": "masked"])
        defer { manager.stop() }
        var (_, report) = try await doctor()
        let autostart = try XCTUnwrap(report.finding("autostart"))
        XCTAssertEqual(autostart.level, "problem")
        XCTAssertTrue(autostart.summary.contains("masked"), autostart.summary)
        XCTAssertEqual(autostart.fix, "systemctl --user unmask mprisd && systemctl --user enable --now mprisd")
        XCTAssertEqual(report.finding("daemon")?.fix, "systemctl --user enable --now mprisd", "started through systemd where it runs")

        try await manager.set(["mprisd.service": "disabled"])
        (_, report) = try await doctor()
        XCTAssertEqual(report.finding("autostart")?.level, "problem")
        XCTAssertEqual(report.finding("autostart")?.fix, "systemctl --user enable --now mprisd")

        try await manager.set([:])
        (_, report) = try await doctor()
        XCTAssertEqual(report.finding("autostart")?.summary, "no user unit mprisd.service is installed")

        try await manager.set(["mprisd.service": "enabled", "mpris-proxy.service": "enabled"])
        (_, report) = try await doctor()
        XCTAssertEqual(report.finding("autostart")?.level, "ok")
        let proxy = try XCTUnwrap(report.finding("mpris-proxy"))
        XCTAssertEqual(proxy.level, "problem", "an enabled mpris-proxy unit, even while it does not run")
        XCTAssertEqual(proxy.fix, "mprisd setup   (or: systemctl --user mask --now mpris-proxy.service)")

        // The fix applied: setup masks the unit (here for sway, whose bindings go to a file).
        try await manager.addUnits(["mprisd.service": (file: "enabled", active: true), "mpris-proxy.service": (file: "enabled", active: false)])
        let sway = ["XDG_CURRENT_DESKTOP": "sway"]
        var result = try await mprisd(["doctor", "--json"], environment: sway)
        report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(report.finding("media-keys")?.level, "problem", result.stdout)
        XCTAssertEqual(report.finding("media-keys")?.fix, "mprisd setup")
        result = try await mprisd(["setup"], environment: sway)
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await mprisd(["doctor", "--json"], environment: sway)
        report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(report.finding("mpris-proxy")?.level, "ok", result.stdout)
        XCTAssertEqual(report.finding("media-keys")?.level, "ok", result.stdout)
    }
}
