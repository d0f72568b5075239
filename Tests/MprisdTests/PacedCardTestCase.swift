import Foundation
import TestSupport
import XCTest

/// A player test with the fake sound card (headphones plugged) and a user-space PulseAudio whose
/// null sink paces playback in real time; outputs are `file` PCMs over it, so each captures
/// exactly what it played.
class PacedCardTestCase: PlayerTestCase {
    private(set) var card: FakeSoundCard!
    private(set) var pulse: PulseServer!

    override func setUp() async throws {
        try await super.setUp()
        card = try FakeSoundCard(FakeSoundCard.State(headphones: true, volume: (60, 60)))
        pulse = try await PulseServer()
    }

    override func tearDown() async throws {
        pulse?.stop()
        card = nil
        try await super.tearDown()
    }

    /// The card's ALSA configuration plus one paced PCM per entry, each capturing to its file;
    /// returns the environment that makes programs use it (PulseAudio's variables included).
    func pacedEnvironment(_ outputs: [(pcm: String, capture: String)]) throws -> [String: String] {
        let config = path("asound-paced.conf")
        var text = try String(contentsOfFile: card.configPath, encoding: .utf8)
        for output in outputs {
            text += """
                pcm.\(output.pcm) {
                    type file
                    slave { pcm { type pulse } }
                    file "\(output.capture)"
                    format "raw"
                }

                """
        }
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        var environment = pulse.variables
        environment["ALSA_CONFIG_PATH"] = config
        return environment
    }

    /// The size of a capture file so far (0 before it exists).
    func size(_ file: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0
    }
}
