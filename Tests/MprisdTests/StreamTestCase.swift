import Foundation
import TestSupport
import XCTest

/// The daemon acting on real audio-server streams: a private server per test — PulseAudio with
/// module-stream-restore, or PipeWire + WirePlumber + pipewire-pulse, each
/// remembering volumes and mutes per role as on a desktop — with `mprisd run -- paplay` as the
/// program that does not speak our API, observed the way a user would: `pactl` for volumes and
/// mutes, and the null sink's monitor for what a listener hears.
class StreamTestCase: DaemonTestCase {
    private(set) var pulse: (any TestAudioServer)?
    private var extraPrograms: [BackgroundProcess] = []

    /// PA_VOLUME_NORM.
    static let norm: UInt32 = 0x10000
    /// What a ducked stream gets: the user's raw value × 0.3, rounded (ChannelVolume.scaled).
    static func ducked(_ value: UInt32) -> UInt32 { UInt32((Double(value) * 0.3).rounded()) }

    override func tearDown() {
        for process in extraPrograms { process.stop() }
        extraPrograms.removeAll()
        super.tearDown()
        pulse?.stop()
        pulse = nil
    }

    /// Starts a server of `kind` (it remembers a stream's volume and mute per role).
    @discardableResult
    func startPulse(_ kind: AudioServerKind) async throws -> any TestAudioServer {
        let server = try await startServer(kind, bus: bus)
        pulse = server
        return server
    }

    /// What a client adds to its environment to reach the server.
    var serverVariables: [String: String] { pulse?.clientVariables ?? [:] }

    /// The test's environment with the server's address.
    var pulseEnvironment: [String: String] { environment(serverVariables) }

    /// The daemon, connected to the server.
    @discardableResult
    func startStreamDaemon() async throws -> BackgroundProgram {
        let daemon = try await startDaemon(environment: serverVariables)
        await waitForDaemonLog("connected to the audio server", timeout: .seconds(10))
        return daemon
    }

    // MARK: Streams

    /// A sink input as pactl shows it.
    struct SinkInput: CustomStringConvertible {
        var index: UInt32
        var processID: Int32?
        var app: String?
        var role: String?
        var volumes: [UInt32]
        var muted: Bool

        var description: String { "#\(index) pid \(processID ?? -1) role \(role ?? "-") volume \(volumes) muted \(muted)" }
    }

    func sinkInputs() async throws -> [SinkInput] {
        try await Pactl.list("sink-inputs", environment: pulseEnvironment).compactMap { object in
            guard let index = object["index"] as? Int else { return nil }
            let properties = object["properties"] as? [String: Any] ?? [:]
            let volume = object["volume"] as? [String: Any] ?? [:]
            let values = volume.values.compactMap { ($0 as? [String: Any])?["value"] as? Int }.map { UInt32($0) }
            return SinkInput(index: UInt32(index),
                             processID: (properties["application.process.id"] as? String).flatMap { Int32($0) },
                             app: properties["application.name"] as? String,
                             role: properties["media.role"] as? String,
                             volumes: values, muted: object["mute"] as? Bool ?? false)
        }
    }

    /// Waits until a sink input satisfying `condition` exists; returns it.
    @discardableResult
    func waitForSinkInput(_ what: String, timeout: Duration = .seconds(10), file: StaticString = #filePath, line: UInt = #line,
                          _ condition: @escaping (SinkInput) -> Bool) async throws -> SinkInput {
        var last: [SinkInput] = []
        var found: SinkInput?
        _ = await eventually(timeout: timeout) {
            last = (try? await self.sinkInputs()) ?? []
            found = last.first(where: condition)
            return found != nil
        }
        guard let found else {
            XCTFail("timed out waiting for \(what); sink inputs: \(last)\ndaemon: \(daemon?.stderr ?? "")", file: file, line: line)
            throw TestSupportError("no sink input: \(what)")
        }
        return found
    }

    /// The sink input `index` now (nil once gone).
    func sinkInput(_ index: UInt32) async throws -> SinkInput? {
        try await sinkInputs().first { $0.index == index }
    }

    /// Asserts that sink input `index` keeps satisfying `condition` for `duration` (the daemon
    /// had time to act, and did not).
    func assertKeeps(_ index: UInt32, _ what: String, for duration: Duration = .milliseconds(800),
                     file: StaticString = #filePath, line: UInt = #line,
                     _ condition: @escaping (SinkInput) -> Bool) async throws {
        var last: SinkInput?
        let held = try await holds(for: duration) {
            last = try await sinkInput(index)
            return last.map(condition) ?? false
        }
        XCTAssertTrue(held, "\(what): \(last.map { "\($0)" } ?? "gone")\ndaemon: \(daemon?.stderr ?? "")", file: file, line: line)
    }

    /// `mprisd run --category playback --name music -- paplay --property=media.role=music LONG`:
    /// returns the program and its stream once the daemon has its session active.
    func startMusic(seconds: Double = 60) async throws -> (BackgroundProgram, SinkInput) {
        let file = try track("music.wav", seconds: seconds)
        let music = try run(["--category", "playback", "--name", "music", "--",
                             "paplay", "--property=media.role=music", file], environment: serverVariables)
        try await waitForStatus("the daemon has music's session active") { status in
            status.sessions.contains { $0.name == "music" && $0.active }
        }
        let stream = try await waitForSinkInput("paplay's stream") { $0.app == "paplay" && $0.role == "music" && $0.processID != nil }
        return (music, stream)
    }

    /// A plain `paplay` with role `role` (no session): a new stream of that key.
    func startPaplay(role: String, seconds: Double = 30) throws -> BackgroundProcess {
        let file = try track("plain-\(role).wav", seconds: seconds)
        let process = try BackgroundProcess("/usr/bin/paplay", ["--property=media.role=\(role)", file], environment: pulseEnvironment)
        extraPrograms.append(process)
        return process
    }

    /// `mprisd run --category playback --duck -- sleep 60`: ducks the others while it runs.
    func startDucker() throws -> BackgroundProgram {
        try run(["--category", "playback", "--duck", "--name", "ducker", "--", "sleep", "60"])
    }

    /// `mprisd run` of a voice call: interrupts the others while it runs.
    func startCall() throws -> BackgroundProgram {
        try run(["--category", "playAndRecord", "--mode", "voiceChat", "--name", "call", "--", "sleep", "60"])
    }

    func setVolume(_ index: UInt32, raw: UInt32) async throws {
        try await Pactl.run(["set-sink-input-volume", "\(index)", "\(raw)"], environment: pulseEnvironment)
    }

    // MARK: What a listener hears

    /// The RMS level (0…1) of what the null sink plays, over `seconds` of its monitor.
    func monitorLevel(seconds: Double = 0.6) async throws -> Double {
        let file = path("monitor-\(UUID().uuidString.prefix(6)).raw")
        let command = "exec timeout \(seconds) /usr/bin/parec --device=\(pulse?.monitorName ?? "") --raw "
            + "--format=s16le --channels=2 --rate=44100 --latency-msec=20 > '\(file)'"
        _ = try await runProgram("/bin/sh", ["-c", command], environment: pulseEnvironment, timeout: .seconds(10))
        guard let data = FileManager.default.contents(atPath: file) else { throw TestSupportError("parec recorded nothing") }
        try? FileManager.default.removeItem(atPath: file)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        // The first 100 ms may still hold what played before.
        let tail = samples.dropFirst(Swift.min(samples.count, 44_100 / 10 * 2))
        guard !tail.isEmpty else { throw TestSupportError("parec recorded \(data.count) bytes") }
        let sum = tail.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(tail.count)).squareRoot() / 32768
    }

    /// Waits until the monitor's level satisfies `condition`; returns the last level.
    @discardableResult
    func waitForLevel(_ what: String, timeout: Duration = .seconds(10), file: StaticString = #filePath, line: UInt = #line,
                      _ condition: @escaping (Double) -> Bool) async throws -> Double {
        var last = -1.0
        let held = await eventually(timeout: timeout) {
            last = (try? await self.monitorLevel()) ?? -1
            return condition(last)
        }
        XCTAssertTrue(held, "\(what): the monitor's level is \(last)", file: file, line: line)
        return last
    }
}
