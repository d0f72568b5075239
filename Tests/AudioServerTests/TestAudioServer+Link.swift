import Foundation
import TestSupport

/// What the link's tests add to either real server: where its socket is, and real players and
/// recorders with properties.
extension TestAudioServer {
    /// `$XDG_RUNTIME_DIR/pulse/native`: where both servers listen (and the link looks).
    var pulseSocketPath: String { runtimeDirectory.appendingPathComponent("pulse/native").path }

    /// A real player: `paplay --raw` of endless silence, with `--property=KEY=VALUE` for each of
    /// `properties`; stopped with the returned process.
    func paplay(_ properties: [String: String] = [:]) throws -> BackgroundProcess {
        let arguments = ["--raw", "--rate=8000", "--channels=2", "--format=s16le"]
            + properties.sorted { $0.key < $1.key }.map { "--property=\($0.key)=\($0.value)" } + ["/dev/zero"]
        return try BackgroundProcess(name: "paplay", "/usr/bin/timeout", ["-s", "KILL", "300", "/usr/bin/paplay"] + arguments,
                                     environment: environment)
    }

    /// A real recorder of `device` (`parec --raw`, to /dev/null).
    func parec(from device: String, _ properties: [String: String] = [:]) throws -> BackgroundProcess {
        let arguments = ["--raw", "--rate=8000", "--channels=1", "--format=s16le", "--device=\(device)"]
            + properties.sorted { $0.key < $1.key }.map { "--property=\($0.key)=\($0.value)" } + ["/dev/null"]
        return try BackgroundProcess(name: "parec", "/usr/bin/timeout", ["-s", "KILL", "300", "/usr/bin/parec"] + arguments,
                                     environment: environment)
    }

    /// Adds a source that is not a monitor (a microphone): `module-null-source` on PulseAudio; on
    /// pipewire-pulse, which has no such module, a null sink node of class Audio/Source/Virtual.
    func addSource(named name: String) async throws {
        switch kind {
        case .pulseAudio: try await pactl("load-module", "module-null-source", "source_name=\(name)")
        case .pipeWire: try await pactl("load-module", "module-null-sink", "sink_name=\(name)", "media.class=Audio/Source/Virtual")
        }
    }
}
