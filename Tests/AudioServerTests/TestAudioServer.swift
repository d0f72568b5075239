import Foundation
import TestSupport

/// Either real server, the same way for every test of the link: PulseAudio 16, or PipeWire +
/// WirePlumber + pipewire-pulse.
enum ServerKind: String, Sendable {
    case pulseaudio
    case pipewire
}

final class TestAudioServer: Sendable {
    let kind: ServerKind
    private let pulse: PulseAudioDaemon?
    private let pipewire: PipeWireServer?

    /// Starts a server of `kind` (`busAddress`: the test's bus, which WirePlumber needs).
    init(_ kind: ServerKind, busAddress: String, start: Bool = true) async throws {
        self.kind = kind
        switch kind {
        case .pulseaudio:
            pulse = try await PulseAudioDaemon(start: start)
            pipewire = nil
        case .pipewire:
            precondition(start, "PipeWireServer starts in init")
            pulse = nil
            pipewire = try await PipeWireServer(busAddress: busAddress)
        }
    }

    /// `$XDG_RUNTIME_DIR/pulse/native` of the server.
    var socketPath: String { pulse?.socketPath ?? pipewire?.pulseSocket ?? "" }
    var runtimeDirectory: String { pulse?.runtimeDirectory.path ?? pipewire?.runtimeDirectory.path ?? "" }
    /// The null sink's name (the default sink).
    var sinkName: String { pulse != nil ? "null-sink" : PipeWireServer.sinkName }

    /// For pactl, paplay, parec.
    var clientEnvironment: [String: String] { pulse?.clientEnvironment ?? pipewire?.environment() ?? [:] }

    func kill() {
        pulse?.kill()
        pipewire?.kill()
    }

    func start() async throws {
        try await pulse?.start()
        try await pipewire?.start()
    }

    var log: String { pulse?.log ?? pipewire?.log ?? "" }

    func stop() {
        pulse?.stop()
        pipewire?.stop()
    }

    /// `pactl ARGUMENTS` against this server.
    @discardableResult
    func pactl(_ arguments: String...) async throws -> String {
        try await Pactl.run(arguments, environment: clientEnvironment)
    }

    /// A real player: `paplay --raw` of endless silence, with `--property=KEY=VALUE` for each of
    /// `properties`; stopped with the returned process.
    func play(_ properties: [String: String] = [:], extra: [String] = []) throws -> BackgroundProcess {
        let arguments = ["--raw", "--rate=8000", "--channels=2", "--format=s16le"]
            + properties.sorted { $0.key < $1.key }.map { "--property=\($0.key)=\($0.value)" } + extra + ["/dev/zero"]
        return try BackgroundProcess(name: "paplay", "/usr/bin/timeout", ["-s", "KILL", "300", "/usr/bin/paplay"] + arguments,
                                     environment: clientEnvironment)
    }

    /// A real recorder of `device` (`parec --raw`, to /dev/null).
    func record(from device: String, _ properties: [String: String] = [:]) throws -> BackgroundProcess {
        let arguments = ["--raw", "--rate=8000", "--channels=1", "--format=s16le", "--device=\(device)"]
            + properties.sorted { $0.key < $1.key }.map { "--property=\($0.key)=\($0.value)" } + ["/dev/null"]
        return try BackgroundProcess(name: "parec", "/usr/bin/timeout", ["-s", "KILL", "300", "/usr/bin/parec"] + arguments,
                                     environment: clientEnvironment)
    }

    /// Adds a source that is not a monitor (a microphone): `module-null-source` on PulseAudio; on
    /// pipewire-pulse, which has no such module, a null sink node of class Audio/Source/Virtual.
    func addSource(named name: String) async throws {
        switch kind {
        case .pulseaudio: try await pactl("load-module", "module-null-source", "source_name=\(name)")
        case .pipewire: try await pactl("load-module", "module-null-sink", "sink_name=\(name)", "media.class=Audio/Source/Virtual")
        }
    }
}
