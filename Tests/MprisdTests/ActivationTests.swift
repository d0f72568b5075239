import DBus
import Foundation
import TestSupport
import XCTest

/// Installation as documented: `scripts/install-user.sh` puts the binary, the systemd user unit and
/// the D-Bus activation file in place, and a bus that reads that service directory starts the
/// daemon on demand — `mprisd run` and `mprisd play` find it without anyone starting it.
final class ActivationTests: XCTestCase {
    private var home: String!
    private var bus: TestBus?

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "mprisd-home-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        // The activated daemon belongs to the bus's process tree; stopping the bus ends its connection.
        bus?.stop()
        _ = try? FileManager.default.removeItem(atPath: home)
    }

    private var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    func testTheInstalledServiceFilesStartTheDaemonOnDemand() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DESTHOME"] = home
        environment["MPRISD_BINARY"] = Products.path("mprisd")
        let install = try await runProgram("/bin/bash", [repository + "/scripts/install-user.sh"],
                                           environment: environment)
        XCTAssertEqual(install.status, 0, install.stderr)
        let binary = home + "/.local/bin/mprisd"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary))
        let unit = try String(contentsOfFile: home + "/.config/systemd/user/mprisd.service", encoding: .utf8)
        XCTAssertTrue(unit.contains("ExecStart=\(binary)\n"), unit)
        XCTAssertTrue(unit.contains("BusName=org.mprisd.AudioPolicy"), unit)
        let services = home + "/.local/share/dbus-1/services"
        let activation = try String(contentsOfFile: services + "/org.mprisd.AudioPolicy.service", encoding: .utf8)
        XCTAssertTrue(activation.contains("Exec=\(binary)\n"), activation)
        XCTAssertFalse(unit.contains("@BINDIR@") || activation.contains("@BINDIR@"))

        // A bus that knows the service directory; the daemon it starts keeps its state in `home`.
        var busEnvironment = ProcessInfo.processInfo.environment
        busEnvironment["XDG_STATE_HOME"] = home + "/state"
        busEnvironment["XDG_CONFIG_HOME"] = home + "/config"
        busEnvironment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent"
        let bus = try TestBus(serviceDirectory: services, environment: busEnvironment)
        self.bus = bus
        let client = try Connection(address: bus.address)
        defer { client.close() }
        let before = try await client.listNames()
        XCTAssertFalse(before.contains("org.mprisd.AudioPolicy"), "nothing runs before it is needed")

        var runEnvironment = bus.environment
        runEnvironment["XDG_STATE_HOME"] = home + "/state"
        let run = try await runProgram(binary, ["run", "--category", "playback", "--", "true"], environment: runEnvironment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("no policy daemon"), "the daemon was started on demand: \(run.stderr)")
        let after = try await client.listNames()
        XCTAssertTrue(after.contains("org.mprisd.AudioPolicy"), "the activated daemon stays to serve")

        let status = try await runProgram(binary, ["status", "--json"], environment: runEnvironment)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("\"silentMode\""), status.stdout)
    }

    /// `mprisd status` is the first thing a user types after installing: with the activation file
    /// in place it starts the daemon and shows its status (issue 17), instead of "no daemon".
    /// Without one it still answers "no daemon" (69) and nothing is started.
    func testStatusStartsTheDaemonThroughTheActivationFile() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DESTHOME"] = home
        environment["MPRISD_BINARY"] = Products.path("mprisd")
        let install = try await runProgram("/bin/bash", [repository + "/scripts/install-user.sh"], environment: environment)
        XCTAssertEqual(install.status, 0, install.stderr)
        let binary = home + "/.local/bin/mprisd"

        var busEnvironment = ProcessInfo.processInfo.environment
        busEnvironment["XDG_STATE_HOME"] = home + "/state"
        busEnvironment["XDG_CONFIG_HOME"] = home + "/config"
        busEnvironment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent"
        let bare = try TestBus(environment: busEnvironment)
        defer { bare.stop() }
        let unanswered = try await runProgram(binary, ["status"], environment: bare.environment)
        XCTAssertEqual(unanswered.status, 69, "no activation file, no daemon: \(unanswered.stderr)")
        XCTAssertTrue(unanswered.stderr.contains("no policy daemon"), unanswered.stderr)

        let bus = try TestBus(serviceDirectory: home + "/.local/share/dbus-1/services", environment: busEnvironment)
        self.bus = bus
        let client = try Connection(address: bus.address)
        defer { client.close() }
        let before = try await client.listNames()
        XCTAssertFalse(before.contains("org.mprisd.AudioPolicy"), "nothing runs before it is needed")
        let status = try await runProgram(binary, ["status", "--json"], environment: bus.environment)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("\"silentMode\""), status.stdout)
        let after = try await client.listNames()
        XCTAssertTrue(after.contains("org.mprisd.AudioPolicy"), "mprisd status started the daemon, which stays to serve")
    }
}
