@testable import AudioDevices
import XCTest

/// The pause path for devices without hardware pause (`snd_pcm_drop` + `snd_pcm_prepare`), taken on
/// the capture PCM by clearing `pausesInPlace`: the stream must go on after it, nothing duplicated.
final class ALSADropPauseTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        try ALSATestConfig.activate(in: directory)
    }

    override func tearDown() {
        ALSATestConfig.deactivate()
    }

    func testPauseByDroppingLeavesAWritableStream() throws {
        let captured = directory.file("out.raw")
        let output = try ALSAOutput(device: ALSATestConfig.device(capturingInto: captured))
        try output.open(sampleRate: 8_000, channels: 1)
        XCTAssertTrue(output.pausesInPlace, "the null slave can pause")
        output.pausesInPlace = false

        let first = [Float](repeating: 0.5, count: 4_000)
        try first.withUnsafeBufferPointer { _ = try output.write($0) }
        let dropped = try output.pause()
        XCTAssertEqual(output.writtenFrames, 4_000 - dropped)
        XCTAssertEqual(output.playedFrames, output.writtenFrames, "paused: nothing more to play")

        try output.resume()
        let second = [Float](repeating: -0.25, count: 2_000)
        try second.withUnsafeBufferPointer { _ = try output.write($0) }
        try output.drain()
        XCTAssertEqual(output.writtenFrames, 6_000 - dropped)
        output.close()

        let bytes = try TestAudio.readBytes(captured)
        XCTAssertEqual(bytes.count, 6_000 * 2, "the file PCM keeps what was written, dropped or not")
        XCTAssertEqual(Array(bytes.suffix(4)), [0x00, 0xE0, 0x00, 0xE0], "-0.25 as S16 after the pause")
    }
}
