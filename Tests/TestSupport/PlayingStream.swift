import Foundation

/// A real playback stream on a test server: `paplay` (a libpulse client, both servers) or
/// `pw-play` (a native PipeWire client) playing a constant sine, tagged with properties the way
/// real apps tag theirs, so a test can find it (`index()`), act on it with pactl, and hear it
/// (`Loudness`, `CaptureStream`): its level at full volume is `expectedRMS`.
public final class PlayingStream: Sendable {
    /// Which real client plays.
    public enum Client: String, Sendable {
        /// `paplay --property=…`: a libpulse client, on both servers.
        case paplay
        /// `pw-play --properties=…`: a native PipeWire client (PipeWire only). Roles are PipeWire's
        /// own names there (`Music`, `Communication`, …).
        case pwPlay
    }

    /// The value of `TestStream.idProperty` on this stream.
    public let id: String
    public let client: Client
    /// Every property set on the stream (media.role, application.name, the id, the caller's).
    public let properties: [String: String]
    /// The sine's amplitude (0…1 of full scale).
    public let amplitude: Double
    private let process: BackgroundProcess
    private let server: any TestAudioServer

    /// Starts playing at once.
    /// - Parameters:
    ///   - role: `media.role` (nil: none set, as many apps do; pw-play then still says Music).
    ///   - properties: more stream properties (they win over role and applicationName).
    ///   - device: a sink name (default: the server's default sink).
    ///   - seconds: how long the sine lasts; the client is killed after that and 30 s more anyway.
    public init(on server: any TestAudioServer, role: String? = "music", applicationName: String = "mprisd-test",
                properties: [String: String] = [:], client: Client = .paplay, device: String? = nil,
                amplitude: Double = 0.5, seconds: Int = 60) throws {
        let id = TestStream.newID()
        var all = ["application.name": applicationName, TestStream.idProperty: id]
        if let role { all["media.role"] = role }
        all.merge(properties) { _, new in new }
        self.id = id
        self.client = client
        self.properties = all
        self.amplitude = amplitude
        self.server = server
        let file = try WAVFile.sine(amplitude: amplitude, seconds: seconds)
        let lifetime = Duration.seconds(seconds + 30)
        var arguments: [String]
        switch client {
        case .paplay:
            arguments = TestStream.wrapped("/usr/bin/paplay", lifetime: lifetime) + TestStream.propertyArguments(all)
            if let device { arguments.append("--device=\(device)") }
        case .pwPlay:
            guard server.kind == .pipeWire else { throw TestSupportError("pw-play needs PipeWire, not \(server.kind)") }
            arguments = TestStream.wrapped("/usr/bin/pw-play", lifetime: lifetime) + ["--properties=\(Self.spaDictionary(all))"]
            if let role { arguments.append("--media-role=\(role)") }
            if let device { arguments.append("--target=\(device)") }
        }
        process = try BackgroundProcess(name: client.rawValue, "/usr/bin/timeout", arguments + [file],
                                        environment: server.environment)
    }

    /// `{ "key": "value", … }`: pw-play's property syntax (SPA JSON).
    private static func spaDictionary(_ properties: [String: String]) -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "{ " + properties.sorted { $0.key < $1.key }.map { "\(quoted($0.key)): \(quoted($0.value))" }
            .joined(separator: ", ") + " }"
    }

    /// The RMS of the sine at full volume (`amplitude / √2`): what the sink's monitor carries
    /// while this stream plays alone, unmuted at 100 %.
    public var expectedRMS: Double { amplitude / 2.0.squareRoot() }

    /// The stream's sink-input index, once the server lists it.
    public func index(timeout: Duration = .seconds(10)) async throws -> Int {
        try await TestStream.index(of: id, in: "sink-inputs", on: server, process: process, timeout: timeout)
    }

    /// The sink-input indices of many streams (one `pactl list` per round, not one per stream),
    /// once all of them are listed: stream id → index.
    public static func indices(of streams: [PlayingStream], on server: any TestAudioServer,
                               timeout: Duration = .seconds(30)) async throws -> [String: Int] {
        let wanted = Set(streams.map(\.id))
        let deadline = ContinuousClock.now + timeout
        while true {
            let found = try await server.sinkInputIndices(ids: wanted)
            if found.count == wanted.count { return found }
            if let dead = streams.first(where: { !$0.isRunning }) {
                throw TestSupportError("\(dead.client.rawValue) exited before its stream was listed: \(dead.log)")
            }
            guard ContinuousClock.now < deadline else {
                throw TestSupportError("\(wanted.count - found.count) of \(wanted.count) streams not listed within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The stream's entry in `pactl -f json list sink-inputs` now (volume, mute, corked, sink,
    /// properties), nil if it is gone.
    public func entry() async throws -> [String: Any]? {
        try await server.list("sink-inputs").first { ($0["properties"] as? [String: Any])?[TestStream.idProperty] as? String == id }
    }

    /// The client's process (timeout's, whose group holds the client).
    public var pid: Int32 { process.pid }
    public var isRunning: Bool { process.isRunning }
    /// What the client wrote on standard error.
    public var log: String { process.standardError }

    /// Ends the client (SIGKILL): the stream vanishes, as when an app quits or crashes. Idempotent.
    public func stop() {
        process.stop()
    }

    deinit {
        stop()
    }
}
