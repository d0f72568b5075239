import Foundation
import TestSupport
import XCTest

/// What `mprisd play` writes to the device is exactly the decoded samples times the relative
/// volume (G-VOLUME: a gain in the player, never the mixer), through alsa-lib's `file` plugin.
final class PlayOutputTests: PlayerTestCase {
    func testBytesWrittenEqualDecodedSamplesTimesVolume() async throws {
        let config = path("asound.conf")
        try """
        pcm.capture {
            type file
            slave { pcm { type null } }
            file "\(path("out.raw"))"
            format "raw"
        }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        // Even samples, so half of each is exact in 16 bits.
        var samples: [Int16] = []
        for frame in 0..<22_050 {
            let value = Int16((frame % 8_000) * 2 - 8_000)
            samples += [value, -value]
        }
        try WAVFile.write(samples, sampleRate: 44_100, channels: 2, to: path("tone.wav"))
        let player = try play(["--device", "capture", "--volume", "0.5", path("tone.wav")],
                              environment: ["ALSA_CONFIG_PATH": config])
        let status = await player.waitForExit()
        XCTAssertEqual(status, 0, player.stderr)
        let raw = try Data(contentsOf: URL(fileURLWithPath: path("out.raw")))
        let written = raw.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)).map { Int16(littleEndian: $0) } }
        XCTAssertEqual(written.count, samples.count, "every frame written once")
        let expected = samples.map { $0 / 2 }
        XCTAssertEqual(written, expected, "the bytes are the decoded samples × 0.5")
    }
}
