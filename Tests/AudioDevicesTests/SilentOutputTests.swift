import AudioDevices
import Foundation
import XCTest

/// The silent output keeps real time: measured against the same monotonic clock it sleeps on.
final class SilentOutputTests: XCTestCase {
    private let rate = 48_000

    private func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// Writes `duration` seconds of stereo silence in 1024-frame chunks (what a player does).
    private func write(_ duration: Double, to sink: SilentOutput) throws {
        let chunk = [Float](repeating: 0, count: 1024 * 2)
        var left = Int(duration * Double(rate))
        while left > 0 {
            let frames = min(left, 1024)
            try chunk.withUnsafeBufferPointer {
                XCTAssertEqual(try sink.write(UnsafeBufferPointer(rebasing: $0[0..<(frames * 2)])), frames)
            }
            left -= frames
        }
    }

    func testHalfASecondOfAudioTakesHalfASecond() throws {
        let sink = SilentOutput(bufferNanoseconds: 100_000_000)
        try sink.open(sampleRate: rate, channels: 2)
        let start = DispatchTime.now()
        try write(0.5, to: sink)
        let written = seconds(since: start)
        // write returns once the 100 ms buffer has room, like a device
        XCTAssertEqual(written, 0.4, accuracy: 0.02)
        XCTAssertEqual(Double(sink.playedFrames) / Double(rate), seconds(since: start), accuracy: 0.01)
        try sink.drain()
        XCTAssertEqual(seconds(since: start), 0.5, accuracy: 0.025)
        XCTAssertEqual(sink.playedFrames, 24_000)
        XCTAssertEqual(sink.writtenFrames, 24_000)
        XCTAssertEqual(sink.underruns, 0)
    }

    func testPauseStopsTheClockAndResumeContinuesIt() throws {
        let sink = SilentOutput(bufferNanoseconds: 100_000_000)
        try sink.open(sampleRate: rate, channels: 2)
        let start = DispatchTime.now()
        try write(0.3, to: sink)
        XCTAssertEqual(try sink.pause(), 0, "pauses in place")
        let pausedAt = seconds(since: start)
        let frozen = sink.playedFrames
        XCTAssertEqual(Double(frozen) / Double(rate), pausedAt, accuracy: 0.01, "played up to the pause")
        Thread.sleep(forTimeInterval: 0.2)  // time is the subject here: paused, the clock stands still
        XCTAssertEqual(sink.playedFrames, frozen, "no progress while paused")
        XCTAssertThrowsError(try [Float](repeating: 0, count: 2).withUnsafeBufferPointer { try sink.write($0) }) {
            XCTAssertEqual($0 as? AudioOutputError, .paused(device: "silent"))
        }
        let resumedAt = seconds(since: start)
        try sink.resume()
        try sink.drain()
        XCTAssertEqual(seconds(since: start), 0.3 + (resumedAt - pausedAt), accuracy: 0.025,
                       "0.3 s of audio plus the time spent paused")
        XCTAssertEqual(sink.playedFrames, 14_400)
        XCTAssertEqual(sink.underruns, 0)
    }

    func testRunningDryCountsAnUnderrunAndRestartsTheSchedule() throws {
        let sink = SilentOutput(bufferNanoseconds: 100_000_000)
        try sink.open(sampleRate: rate, channels: 2)
        try write(0.05, to: sink)
        Thread.sleep(forTimeInterval: 0.1)  // time is the subject here: the output runs dry in real time
        XCTAssertEqual(sink.playedFrames, 2_400)
        let start = DispatchTime.now()
        try write(0.2, to: sink)
        XCTAssertEqual(sink.underruns, 1)
        XCTAssertEqual(seconds(since: start), 0.1, accuracy: 0.02, "a new schedule from the current frame")
        XCTAssertEqual(sink.playedFrames, 2_400 + Int(seconds(since: start) * Double(rate)), accuracy: 480)
    }

    func testDropDiscardsAndResetsAndCloseForgetsTheFormat() throws {
        let sink = SilentOutput(bufferNanoseconds: 100_000_000)
        try sink.open(sampleRate: rate, channels: 2)
        try write(0.05, to: sink)
        try sink.drop()
        XCTAssertEqual(sink.writtenFrames, 0)
        XCTAssertEqual(sink.playedFrames, 0)
        let start = DispatchTime.now()
        try sink.drain()
        XCTAssertLessThan(seconds(since: start), 0.01, "nothing left to play after drop")
        sink.close()
        XCTAssertNil(sink.format)
        XCTAssertThrowsError(try [Float](repeating: 0, count: 2).withUnsafeBufferPointer { try sink.write($0) }) {
            XCTAssertEqual($0 as? AudioOutputError, .notOpen(device: "silent"))
        }
        XCTAssertFalse(sink.canChangeRate)
    }
}
