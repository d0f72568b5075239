import Foundation
import TestSupport
import XCTest

/// `mprisd status` shows the audio server: the real daemon connected to a real PulseAudio (the
/// test's own, through PULSE_SERVER), a real `paplay` stream with its role, process id and sink in
/// the text and in `--json`, the null sink as the default device; without a server, why not.
final class DaemonAudioServerStatusTests: DaemonTestCase {
    private var servers: [PulseServer] = []
    private var streams: [BackgroundProcess] = []

    override func tearDown() {
        for stream in streams { stream.stop() }
        streams.removeAll()
        super.tearDown()  // the daemon goes before its server
        for server in servers { server.stop() }
        servers.removeAll()
    }

    private func startPulse() async throws -> PulseServer {
        let pulse = try await PulseServer()
        servers.append(pulse)
        return pulse
    }

    /// `paplay` of a long tone into `pulse` with `properties` (`media.role=music`…).
    private func paplay(_ pulse: PulseServer, _ properties: [String]) throws -> BackgroundProcess {
        let file = try track("tone-\(streams.count).wav", seconds: 60)
        let process = try BackgroundProcess(name: "paplay", "/usr/bin/paplay",
                                            properties.map { "--property=\($0)" } + [file],
                                            environment: pulse.environment(adding: environment()))
        streams.append(process)
        return process
    }

    /// The audio server's fields of a status document, decoded as docs/audio-policy-api.md
    /// documents them, apart from the product's own type.
    private struct AudioDocument: Decodable {
        struct Server: Decodable {
            var connected: Bool
            var name: String?
            var version: String?
            var address: String
            var reason: String?
        }

        struct Stream: Decodable {
            var direction: String
            var index: UInt32
            var application: String?
            var binary: String?
            var pid: Int32?
            var role: String?
            var mediaName: String?
            var device: String?
            var corked: Bool
            var volume: Double
            var muted: Bool
            var monitor: Bool
            var session: String?
            var action: String?
        }

        struct Port: Decodable {
            var name: String
            var description: String
            var available: String
        }

        struct Device: Decodable {
            var kind: String
            var name: String
            var description: String
            var `default`: Bool
            var available: Bool
            var monitor: Bool
            var muted: Bool
            var ports: [Port]
            var activePort: String?
        }

        var audioServer: Server?
        var streams: [Stream]?
        var devices: [Device]?

        init(_ status: DaemonStatus) throws {
            self = try JSONDecoder().decode(AudioDocument.self, from: Data(status.json.utf8))
        }
    }

    func testStatusShowsTheServerItsStreamWithRolePidAndDeviceAndTheDefaultSink() async throws {
        let pulse = try await startPulse()
        try await startDaemon(environment: pulse.variables)
        await waitForDaemonLog("audio server: connected to", timeout: .seconds(20))

        let music = try paplay(pulse, ["media.role=music", "media.name=Tone"])
        let seen = try await waitForStatus("the daemon shows paplay's music stream", timeout: .seconds(20)) { status in
            ((try? AudioDocument(status))?.streams ?? []).contains { $0.role == "music" && $0.pid == music.pid }
        }
        let bus = try AudioDocument(seen)
        let server = try XCTUnwrap(bus.audioServer, seen.json)
        XCTAssertTrue(server.connected, seen.json)
        XCTAssertEqual(server.name, "pulseaudio", seen.json)
        XCTAssertEqual(server.address, pulse.socketPath)
        XCTAssertNil(server.reason)

        // `mprisd status --json`, as a script reads it.
        let json = try AudioDocument(try await cliStatus())
        let stream = try XCTUnwrap(json.streams?.first { $0.pid == music.pid }, "\(json)")
        XCTAssertEqual(stream.direction, "playback")
        XCTAssertEqual(stream.role, "music")
        XCTAssertEqual(stream.application, "paplay")
        XCTAssertEqual(stream.mediaName, "Tone")
        XCTAssertEqual(stream.device, PulseServer.sinkName)
        XCTAssertFalse(stream.monitor)
        XCTAssertFalse(stream.muted)
        XCTAssertEqual(stream.volume, 1, accuracy: 0.001, "paplay starts at 100%")
        let sink = try XCTUnwrap(json.devices?.first { $0.kind == "sink" && $0.name == PulseServer.sinkName }, "\(json)")
        XCTAssertTrue(sink.default, "the null sink is the default")
        XCTAssertTrue(sink.available)
        XCTAssertEqual(json.devices?.filter { $0.kind == "sink" && $0.default }.count, 1, "one default sink")
        let monitor = try XCTUnwrap(json.devices?.first { $0.name == PulseServer.sinkName + ".monitor" }, "\(json)")
        XCTAssertEqual(monitor.kind, "source")
        XCTAssertTrue(monitor.monitor)
        XCTAssertFalse(monitor.default)

        // `mprisd status`, as a person reads it.
        let text = try await mprisd(["status"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        print("TEXT>>>\n" + text.stdout + "\nDAEMON>>>\n" + (daemon?.stderr ?? ""))
        let serverLine = try XCTUnwrap(lines.first { $0.hasPrefix("Audio server") }, text.stdout)
        XCTAssertTrue(serverLine.hasSuffix("connected to pulseaudio \(server.version ?? "?") at \(pulse.socketPath)"), serverLine)
        XCTAssertTrue(lines.contains("Streams"), text.stdout)
        let row = try XCTUnwrap(lines.first { $0.hasPrefix("  \(stream.index) ") && $0.contains("paplay") }, text.stdout)
        XCTAssertEqual(row.split(separator: " ").map(String.init),
                       ["\(stream.index)", "paplay", "music", "playback", PulseServer.sinkName, "100%", "running",
                        "paplay", "(pid", "\(stream.pid ?? -1))", "-"], row)  // its app's implicit session
        let sinkRow = try XCTUnwrap(lines.first { $0.hasPrefix("  sink ") && $0.contains(PulseServer.sinkName) }, text.stdout)
        XCTAssertEqual(sinkRow.split(separator: " ").first { $0 == "*" }, "*", "the default marker: \(sinkRow)")

        let daemonLog = daemon?.stderr ?? ""
        XCTAssertEqual(daemonLog.split(separator: "\n").filter { $0.contains("audio server: connected to") }.count, 1,
                       "one line for the connection, none per stream or per status call: \(daemonLog)")
    }

    /// A recorder of the null sink's monitor (a screen recorder, a level meter) is shown as a
    /// capture of a monitor, not as a microphone.
    func testCaptureOfAMonitorIsShownAsSuch() async throws {
        let pulse = try await startPulse()
        try await startDaemon(environment: pulse.variables)
        let recorder = try BackgroundProcess(name: "parec", "/usr/bin/parec",
                                             ["--device=\(PulseServer.sinkName).monitor", "--raw", "--property=media.role=production"],
                                             environment: pulse.environment(adding: environment()), onOutput: { _ in })
        streams.append(recorder)
        let seen = try await waitForStatus("the daemon shows parec's capture", timeout: .seconds(20)) { status in
            ((try? AudioDocument(status))?.streams ?? []).contains { $0.pid == recorder.pid }
        }
        let capture = try XCTUnwrap(try AudioDocument(seen).streams?.first { $0.pid == recorder.pid })
        XCTAssertEqual(capture.direction, "capture", seen.json)
        XCTAssertEqual(capture.device, PulseServer.sinkName + ".monitor")
        XCTAssertTrue(capture.monitor, seen.json)

        let text = try await mprisd(["status"])
        let row = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.contains("parec") }, text.stdout)
        XCTAssertTrue(row.contains("capture (monitor)"), String(row))
    }

    /// On a PipeWire desktop: the daemon finds pipewire-pulse's socket in `$XDG_RUNTIME_DIR` by
    /// itself (no PULSE_SERVER), shows the stream and the null sink, says so when the server dies
    /// and shows it again once it is back.
    func testPipeWireFoundByItselfShownAndShownAgainAfterARestart() async throws {
        let pipewire = try await PipeWireServer(busAddress: bus.address)
        defer { pipewire.stop() }
        try await startDaemon(environment: ["PULSE_SERVER": "", "XDG_RUNTIME_DIR": pipewire.runtimeDirectory.path])
        let connected = try await waitForStatus("connected to pipewire-pulse", timeout: .seconds(20)) { status in
            (try? AudioDocument(status))?.audioServer?.connected == true
        }
        let server = try XCTUnwrap(try AudioDocument(connected).audioServer)
        XCTAssertTrue(server.name?.contains("on PipeWire") == true, connected.json)
        XCTAssertEqual(server.address, pipewire.pulseSocket)

        let file = try track("pipewire-tone.wav", seconds: 60)
        let music = try BackgroundProcess(name: "paplay", "/usr/bin/paplay", ["--property=media.role=music", file],
                                          environment: pipewire.environment(adding: environment()))
        streams.append(music)
        let seen = try await waitForStatus("the daemon shows paplay's stream on PipeWire", timeout: .seconds(20)) { status in
            ((try? AudioDocument(status))?.streams ?? []).contains { $0.pid == music.pid && $0.device == PipeWireServer.sinkName }
        }
        let stream = try XCTUnwrap(try AudioDocument(seen).streams?.first { $0.pid == music.pid })
        XCTAssertEqual(stream.role, "music", seen.json)
        XCTAssertEqual(stream.direction, "playback")
        let sink = try XCTUnwrap(try AudioDocument(seen).devices?.first { $0.name == PipeWireServer.sinkName }, seen.json)
        XCTAssertTrue(sink.default, seen.json)

        pipewire.kill()
        let gone = try await waitForStatus("the status says the server is gone", timeout: .seconds(20)) { status in
            (try? AudioDocument(status))?.audioServer?.connected == false
        }
        let absent = try AudioDocument(gone)
        XCTAssertNotNil(absent.audioServer?.reason, gone.json)
        XCTAssertEqual(absent.streams?.count, 0, "nothing of the dead server is shown: \(gone.json)")
        let text = try await mprisd(["status"])
        XCTAssertTrue(text.stdout.contains("Audio server  not connected: "), text.stdout)

        try await pipewire.start()
        // Only that the server and its sink are back: which sink is the default right after a
        // restart is the route follower's business (pipewire-pulse answers `@DEFAULT_SINK@` until
        // WirePlumber has set it, then announces the change; 2 runs in ~50 kept the placeholder).
        try await waitForStatus("connected again", timeout: .seconds(20)) { status in
            guard let document = try? AudioDocument(status) else { return false }
            return document.audioServer?.connected == true
                && document.devices?.contains { $0.name == PipeWireServer.sinkName } == true
        }
        let daemonLog = daemon?.stderr ?? ""
        XCTAssertEqual(daemonLog.split(separator: "\n").filter { $0.contains("audio server: connected to") }.count, 2,
                       daemonLog)
    }

    /// An app names its own stream: what it puts there reaches `mprisd status` escaped and cut,
    /// and `--json` as it is (data for programs; JSON escapes it).
    func testHostileStreamNameIsEscapedInTheTextAndKeptInJSON() async throws {
        let pulse = try await startPulse()
        try await startDaemon(environment: pulse.variables)
        let hostile = "evil\u{1B}]0;pwned\u{07}" + String(repeating: "x", count: 500)
        let stream = try paplay(pulse, ["application.name=\(hostile)", "media.role=game"])
        try await waitForStatus("the daemon shows the stream", timeout: .seconds(20)) { status in
            ((try? AudioDocument(status))?.streams ?? []).contains { $0.pid == stream.pid }
        }
        let json = try AudioDocument(try await cliStatus())
        let shown = try XCTUnwrap(json.streams?.first { $0.pid == stream.pid }?.application)
        XCTAssertTrue(shown.hasPrefix("evil\u{1B}]0;pwned\u{07}xxx"), "data stays data: \(shown.debugDescription)")
        XCTAssertLessThanOrEqual(shown.unicodeScalars.count, 256, "but bounded")

        let text = try await mprisd(["status"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertFalse(text.stdout.contains("\u{1B}"), text.stdout)
        XCTAssertFalse(text.stdout.contains("\u{07}"), text.stdout)
        let row = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.contains(#"evil\x1b]0;pwned\x07"#) }, text.stdout)
        XCTAssertTrue(row.contains("game"), String(row))
        XCTAssertLessThan(row.count, 300, "a long name does not stretch the row: \(row)")
    }

    /// No server where the daemon looks: it runs anyway, says so once in its log, and `mprisd
    /// status` says why.
    func testWithoutAServerStatusSaysWhyAndTheLogSaysItOnce() async throws {
        let runtime = path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let socket = runtime + "/pulse/native"
        try await startDaemon(environment: ["PULSE_SERVER": "", "XDG_RUNTIME_DIR": runtime])
        let status = try await waitForStatus("the status says why there is no server") { status in
            (try? AudioDocument(status))?.audioServer?.reason != nil
        }
        let server = try XCTUnwrap(try AudioDocument(status).audioServer, status.json)
        XCTAssertFalse(server.connected)
        XCTAssertEqual(server.address, socket)
        XCTAssertEqual(try AudioDocument(status).streams?.count, 0)

        let text = try await mprisd(["status"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let line = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.hasPrefix("Audio server") }, text.stdout)
        XCTAssertTrue(line.contains("not connected: "), String(line))
        XCTAssertTrue(text.stdout.contains("\nStreams  none\n"), text.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: runtime + "/pulse"),
                       "the daemon never makes the server's directory")

        await waitForDaemonLog("audio server:")
        // A few status calls later, still one line about it: nothing is logged per retry or per call.
        for _ in 0..<3 { _ = try await busStatus() }
        let daemonLog = daemon?.stderr ?? ""
        let lines = daemonLog.split(separator: "\n").filter { $0.contains("audio server:") }
        XCTAssertEqual(lines.count, 1, daemonLog)
    }
}
