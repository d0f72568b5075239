import AudioDevices
import CALSA
import Foundation
import Posix
import TestSupport
import XCTest

/// `ALSAOutput` on a real-time device (alsa-lib's `pulse` plugin to a private PulseAudio null
/// sink): it gets a deep buffer, sleeps until the device has drained to the margin, and a command
/// wakes it at once (issue 18).
final class ALSAWaitTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var pulse: PulseServer!
    private var previous: [String: String?] = [:]

    override func setUp() async throws {
        directory = try TemporaryDirectory()
        pulse = try await PulseServer(sampleRate: 44_100)
        try ALSATestConfig.activate(in: directory, extra: """
            pcm.paced { type pulse }
            pcm.recorded { type file slave { pcm paced } file "\(directory.path)/recorded.raw" format "raw" }

            """)
        for (key, value) in pulse.variables {
            previous[key] = ProcessInfo.processInfo.environment[key]
            setenv(key, value, 1)
        }
    }

    override func tearDown() async throws {
        for (key, value) in previous {
            if let value { setenv(key, value, 1) } else { unsetenv(key) }
        }
        ALSATestConfig.deactivate()
        pulse?.stop()
    }

    func testADeepBufferIsRefilledAtTheMarginAndACommandWakesAtOnce() throws {
        // 4 s rather than the plugin's default 12 s (testTheDeepestBufferIsAskedOfAPluginOnly):
        // the same rules, a third of the wait.
        let output = try ALSAOutput(device: "paced", bufferMicroseconds: 4_000_000)
        try output.open(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(output.bufferFrames, 176_400, "PulseAudio grants the 4 s asked for")
        XCTAssertGreaterThanOrEqual(output.wakeFrames, output.bufferFrames / 2, "woken with half the buffer or less left")
        XCTAssertEqual(try output.writableFrames(), output.bufferFrames)

        // Fill as the player does: what there is room for, until less than the wake-up threshold.
        // (PulseAudio takes more than the ring buffer: its own buffer sits behind the plugin's.)
        let silence = [Float](repeating: 0, count: output.bufferFrames * 2)
        var room = try output.writableFrames()
        var fills = 0
        while room >= output.wakeFrames, fills < 10 {
            let frames = min(room, output.bufferFrames)
            try silence.withUnsafeBufferPointer { XCTAssertEqual(try output.write(UnsafeBufferPointer(rebasing: $0[0..<(frames * 2)])), frames) }
            room = try output.writableFrames()
            fills += 1
        }
        XCTAssertLessThan(room, output.wakeFrames, "the device fills up")
        let event = try WakeEvent()
        event.signal()
        XCTAssertEqual(try output.waitForRoom(orReadable: event.fileDescriptor, timeoutMilliseconds: -1), .signalled)
        event.drain()

        let start = DispatchTime.now()
        XCTAssertEqual(try output.waitForRoom(orReadable: event.fileDescriptor, timeoutMilliseconds: -1), .device)
        let slept = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        XCTAssertGreaterThan(slept, 0.2, "slept while the buffer drained, not per chunk")
        XCTAssertGreaterThan(try output.writableFrames(), 0)
        XCTAssertEqual(output.underruns, 0)

        // A pause in place freezes the position; the stream goes on after it.
        XCTAssertTrue(output.pausesInPlace, "PulseAudio corks")
        XCTAssertEqual(try output.pause(), 0)
        XCTAssertEqual(try output.writableFrames(), 0)
        try output.resume()
        output.close()
    }

    /// Only a user-space plugin with a thread of its own gets the deepest buffer: every write costs
    /// that thread wake-ups. Any other PCM — here alsa-lib's `file` over the same plugin — gets 4 s.
    func testTheDeepestBufferIsAskedOfAPluginOnly() throws {
        let plugin = try ALSAOutput(device: "paced")
        try plugin.open(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(plugin.bufferFrames, 44_100 * ALSAOutput.pluginBufferMicroseconds / 1_000_000)
        XCTAssertEqual(plugin.periodFrames, plugin.bufferFrames / 3, "thirds")
        plugin.close()

        let file = try ALSAOutput(device: "recorded")
        try file.open(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(file.bufferFrames, 44_100 * ALSAOutput.bufferMicroseconds / 1_000_000)
        file.close()

        let asked = try ALSAOutput(device: "paced", bufferMicroseconds: 1_000_000)
        try asked.open(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(asked.bufferFrames, 44_100, "an explicit request wins")
        asked.close()
    }
}
