import AudioDevices
import Foundation
import Posix
import XCTest

/// The silent output's deep buffer (issue 18): a full buffer is refilled once it has drained to
/// the wake-up margin, and a command wakes the waiting thread at once however much is queued.
final class SilentOutputWaitTests: XCTestCase {
    private let rate = 48_000

    private func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// Writes `frames` stereo frames of silence in one call.
    private func fill(_ sink: SilentOutput, frames: Int) throws {
        let silence = [Float](repeating: 0, count: frames * 2)
        try silence.withUnsafeBufferPointer { XCTAssertEqual(try sink.write($0), frames) }
    }

    func testAFullBufferWakesTheWriterWhenOnlyTheMarginIsLeft() throws {
        let sink = SilentOutput(bufferNanoseconds: 1_000_000_000)
        try sink.open(sampleRate: rate, channels: 2)
        XCTAssertEqual(sink.bufferFrames, rate)
        XCTAssertEqual(try sink.writableFrames(), rate, "an open, empty sink takes a whole buffer")
        let event = try WakeEvent()
        let start = DispatchTime.now()
        try fill(sink, frames: rate)
        XCTAssertLessThan(try sink.writableFrames(), rate / 10, "full")

        let wake = try sink.waitForRoom(orReadable: event.fileDescriptor, timeoutMilliseconds: -1)
        let slept = seconds(since: start)
        XCTAssertEqual(wake, .device)
        // WakeMargin: half the 1 s buffer: woken with 500 ms left.
        let margin = WakeMargin.frames(buffer: rate)
        XCTAssertEqual(margin, rate / 2)
        XCTAssertGreaterThanOrEqual(slept, 0.499, "not woken before the margin was reached")
        XCTAssertLessThan(slept, 1.0, "woken before the buffer ran dry")
        XCTAssertGreaterThanOrEqual(try sink.writableFrames(), rate - margin - rate / 100)
        XCTAssertEqual(sink.underruns, 0)
    }

    func testACommandWakesTheWaitAtOnceAndATimeLimitEndsIt() throws {
        let sink = SilentOutput(bufferNanoseconds: 2_000_000_000)
        try sink.open(sampleRate: rate, channels: 2)
        try fill(sink, frames: sink.bufferFrames)
        let event = try WakeEvent()

        let limited = DispatchTime.now()
        XCTAssertEqual(try sink.waitForRoom(orReadable: event.fileDescriptor, timeoutMilliseconds: 50), .timedOut)
        XCTAssertLessThan(seconds(since: limited), 0.9, "the time limit, not the 1 s until the margin")

        event.signal()
        let signalled = DispatchTime.now()
        XCTAssertEqual(try sink.waitForRoom(orReadable: event.fileDescriptor, timeoutMilliseconds: -1), .signalled)
        XCTAssertEqual(try sink.waitUntilPlayed(orReadable: event.fileDescriptor, timeoutMilliseconds: -1), .signalled)
        XCTAssertLessThan(seconds(since: signalled), 1.0, "woken by the command, not by the device")
        XCTAssertEqual(event.drain(), 1, "the sink leaves the signal to its owner")

        // Pausing a full buffer stops the clock where it is: nothing queued is lost.
        let written = sink.writtenFrames
        XCTAssertEqual(try sink.pause(), 0)
        let frozen = sink.playedFrames
        XCTAssertLessThan(frozen, written)
        XCTAssertEqual(try sink.writableFrames(), 0, "a paused sink takes nothing")
        Thread.sleep(forTimeInterval: 0.1)  // time is the subject here: the output's clock stands still
        XCTAssertEqual(sink.playedFrames, frozen)
    }
}
