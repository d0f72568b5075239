import Foundation
import TestSupport
import XCTest

/// Self-test of `PulseServer`: the ALSA device `pulse` into its null sink plays in real time,
/// while alsa-lib's `null` device does not pace at all.
final class PulseOutputTests: XCTestCase {
    func testPulseNullSinkPacesInRealTimeAndAlsaNullDoesNot() async throws {
        let pulse = try await PulseServer()
        defer { pulse.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mprisd-pulse-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("two-seconds.wav").path
        let rate = 48_000
        var samples: [Int16] = []
        samples.reserveCapacity(2 * rate * 2)
        for frame in 0..<(2 * rate) {  // 2.0 s of a 440 Hz stereo tone
            let value = Int16(8_000 * sin(2 * Double.pi * 440 * Double(frame) / Double(rate)))
            samples.append(value)
            samples.append(value)
        }
        try WAVFile.write(samples, sampleRate: rate, channels: 2, to: wav)

        let clock = ContinuousClock()
        var result: ProgramResult?
        let paced = try await clock.measure {
            result = try await runProgram("/usr/bin/aplay", ["-q", "-D", "pulse", wav],
                                          environment: pulse.environment(), timeout: .seconds(10))
        }
        XCTAssertEqual(result?.status, 0, "\(result?.stderr ?? "") / \(pulse.log)")
        let seconds = Double(paced.components.seconds) + Double(paced.components.attoseconds) * 1e-18
        XCTAssertEqual(seconds, 2.0, accuracy: 0.1, "aplay -D pulse took \(seconds) s")

        let unpaced = try await clock.measure {
            result = try await runProgram("/usr/bin/aplay", ["-q", "-D", "null", wav], timeout: .seconds(10))
        }
        XCTAssertEqual(result?.status, 0, result?.stderr ?? "")
        XCTAssertLessThan(unpaced, .milliseconds(500), "aplay -D null took \(unpaced)")
        XCTAssertTrue(pulse.isRunning, pulse.log)
    }
}
