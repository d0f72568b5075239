import Foundation

/// Which real audio server a test runs against: the two a Linux desktop has today.
public enum AudioServerKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// PulseAudio 16 itself.
    case pulseAudio
    /// PipeWire + WirePlumber + pipewire-pulse.
    case pipeWire

    public var description: String { rawValue }
}

/// A real audio server started for one test, whichever kind: what a test body needs to run
/// unchanged on both (`startServer(_:bus:)`).
///
/// Both listen on `$XDG_RUNTIME_DIR/pulse/native` (the place every libpulse client looks when
/// PULSE_SERVER is unset), remember stream volumes and mutes per role (WirePlumber's
/// restore-stream, PulseAudio's module-stream-restore), and have a null sink, paced in real time,
/// as the default sink and a null source (a microphone) as the default source.
///
/// A test body for both servers:
///
///     let server = try await startServer(kind, bus: bus)   // in a BusTestCase
///     defer { server.stop() }
///     let capture = try CaptureStream(on: server)          // the sink's monitor: what is heard
///     let stream = try PlayingStream(on: server, role: "music")
///     _ = try await capture.waitForLoudness { $0.isClose(to: stream.expectedRMS, within: 0.05) }
///     try await server.pactl("set-sink-input-mute", "\(try await stream.index())", "1")
///     _ = try await capture.waitForLoudness { $0 < 0.0005 }  // silence: 0 exactly on both
public protocol TestAudioServer: AnyObject, Sendable {
    var kind: AudioServerKind { get }
    /// The null sink (the default sink).
    var sinkName: String { get }
    /// A null source standing in for a microphone (the default source).
    var sourceName: String { get }
    /// The server's XDG_RUNTIME_DIR.
    var runtimeDirectory: URL { get }
    /// `unix:…/pulse/native`: the value of PULSE_SERVER.
    var serverAddress: String { get }
    /// What a client adds to its environment: PULSE_SERVER, PULSE_CLIENTCONFIG (no autospawn),
    /// XDG_RUNTIME_DIR, and on PipeWire PIPEWIRE_RUNTIME_DIR (for native clients like `pw-play`).
    var clientVariables: [String: String] { get }
    /// Whether the server (every process of it) runs.
    var isRunning: Bool { get }
    /// What the server's processes wrote on standard error, for failure messages.
    var log: String { get }

    /// Starts it again in the same directories (after `kill()` or `terminate()`); returns once
    /// it is ready for clients.
    func start(timeout: Duration) async throws
    /// SIGKILL, as a crash: directories and stale socket files stay.
    func kill()
    /// An orderly exit (SIGTERM, waited for): directories stay.
    func terminate()
    /// Ends it for good and removes its directories. Idempotent; deinit does it too.
    func stop()
}

extension TestAudioServer {
    /// The null sink's monitor source: what a listener would hear.
    public var monitorName: String { sinkName + ".monitor" }

    /// The test process's environment with `clientVariables`: for `pactl`, `paplay`, `parec`, or
    /// the daemon under test.
    public var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(clientVariables) { _, new in new }
    }

    /// `pactl ARGUMENTS` against this server: its standard output; throws with its standard error.
    @discardableResult
    public func pactl(_ arguments: String..., timeout: Duration = .seconds(10)) async throws -> String {
        try await Pactl.run(arguments, environment: environment, timeout: timeout)
    }

    /// `pactl -f json list KIND` against this server.
    public func list(_ kind: String) async throws -> [[String: Any]] {
        try await Pactl.list(kind, environment: environment)
    }

    /// Terminates it (if it runs) and starts it again in the same directories.
    public func restart(timeout: Duration = .seconds(20)) async throws {
        if isRunning { terminate() }
        try await start(timeout: timeout)
    }
}

/// Starts a real server of `kind` for one test, configured as a desktop has it (see
/// `TestAudioServer`). PipeWire's WirePlumber needs a session bus: `bus`, the test's own.
/// With `startNow: false` only its directories exist (the runtime directory empty, as on a
/// desktop before its server came up) until `start()`.
public func startServer(_ kind: AudioServerKind, bus: TestBus, startNow: Bool = true,
                        timeout: Duration = .seconds(20)) async throws -> any TestAudioServer {
    switch kind {
    case .pulseAudio:
        return try await PulseServer(restoreStreams: true, socketInRuntimeDirectory: true, startNow: startNow,
                                     timeout: timeout)
    case .pipeWire:
        return try await PipeWireServer(busAddress: bus.address, startNow: startNow, timeout: timeout)
    }
}

extension PulseServer: TestAudioServer {
    public var kind: AudioServerKind { .pulseAudio }
    public var sinkName: String { Self.sinkName }
    public var sourceName: String { Self.sourceName }
    public var clientVariables: [String: String] {
        variables.merging(["XDG_RUNTIME_DIR": runtimeDirectory.path]) { _, new in new }
    }
}

extension PipeWireServer: TestAudioServer {
    public var kind: AudioServerKind { .pipeWire }
    public var sinkName: String { Self.sinkName }
    public var sourceName: String { Self.sourceName }
    public var clientVariables: [String: String] { variables }
}
