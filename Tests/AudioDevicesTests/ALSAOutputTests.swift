import AudioDevices
import XCTest

/// Output through real alsa-lib: a `file` PCM captures every byte the device was given.
final class ALSAOutputTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        try ALSATestConfig.activate(in: directory)
    }

    override func tearDown() {
        ALSATestConfig.deactivate()
    }

    /// Decodes `path` and plays it through `sink` in player-sized chunks with `volume` applied.
    private func play(_ path: String, through sink: some AudioSink, volume: Double) throws {
        let file = try AudioFile(path: path)
        try sink.open(sampleRate: file.info.sampleRate, channels: file.info.channels)
        var buffer = [Float](repeating: 0, count: 1024 * file.info.channels)
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }
            if frames == 0 { break }
            let samples = frames * file.info.channels
            try buffer.withUnsafeMutableBufferPointer { whole in
                let chunk = UnsafeMutableBufferPointer(rebasing: whole[0..<samples])
                Gain.apply(volume, to: chunk)
                XCTAssertEqual(try sink.write(UnsafeBufferPointer(chunk)), frames)
            }
        }
        try sink.drain()
    }

    private func littleEndianBytes(_ values: [Int16]) -> [UInt8] {
        values.flatMap { value -> [UInt8] in
            let bits = UInt16(bitPattern: value)
            return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
    }

    func testTheCapturedBytesAreTheDecodedSamplesTimesTheVolume() throws {
        let samples = TestAudio.samples(frames: 22_050, channels: 2)
        let source = directory.file("in.wav")
        try TestAudio.write(source, .wav16, sampleRate: 44_100, channels: 2, samples: samples)
        let captured = directory.file("out.raw")

        let output = try ALSAOutput(device: ALSATestConfig.device(capturingInto: captured))
        try play(source, through: output, volume: 0.5)
        XCTAssertEqual(output.sampleFormat, .s16LE)
        XCTAssertEqual(output.format, StreamFormat(sampleRate: 44_100, channels: 2))
        XCTAssertEqual(output.writtenFrames, 22_050)
        XCTAssertEqual(output.playedFrames, 22_050, "drained: everything written was played")
        output.close()

        let expected = samples.map { Int16((Double($0) * 0.5).rounded()) }
        let bytes = try TestAudio.readBytes(captured)
        XCTAssertEqual(bytes.count, expected.count * 2)
        XCTAssertTrue(bytes == littleEndianBytes(expected), "captured bytes differ from the decoded samples × 0.5")
    }

    func testAFloatDeviceGetsTheSamplesUnconverted() throws {
        let samples = TestAudio.samples(frames: 4_800, channels: 1)
        let source = directory.file("in.flac")
        try TestAudio.write(source, .flac16, sampleRate: 48_000, channels: 1, samples: samples)
        let captured = directory.file("out.raw")

        let output = try ALSAOutput(device: ALSATestConfig.device(capturingInto: captured),
                                    sampleFormats: [.float32LE])
        try play(source, through: output, volume: 0.25)
        XCTAssertEqual(output.sampleFormat, .float32LE)
        output.close()

        let expected = samples.flatMap { sample -> [UInt8] in
            let bits = (Float(sample) / 32768 * 0.25).bitPattern
            return [UInt8(bits & 0xFF), UInt8((bits >> 8) & 0xFF), UInt8((bits >> 16) & 0xFF), UInt8(bits >> 24)]
        }
        XCTAssertTrue(try TestAudio.readBytes(captured) == expected, "captured floats differ")
    }

    func testAFormatChangeReconfiguresTheOpenDevice() throws {
        let captured = directory.file("out.raw")
        let output = try ALSAOutput(device: ALSATestConfig.device(capturingInto: captured))
        try output.open(sampleRate: 44_100, channels: 2)
        let stereo: [Float] = [0.5, -0.5, 0.25, -0.25]
        try stereo.withUnsafeBufferPointer { _ = try output.write($0) }
        XCTAssertEqual(output.writtenFrames, 2)

        try output.open(sampleRate: 48_000, channels: 1)
        XCTAssertEqual(output.format, StreamFormat(sampleRate: 48_000, channels: 1))
        XCTAssertEqual(output.writtenFrames, 0, "counters restart with the new stream")
        let mono: [Float] = [0.125, -1]
        try mono.withUnsafeBufferPointer { _ = try output.write($0) }
        try output.drain()
        output.close()

        XCTAssertEqual(try TestAudio.readBytes(captured), littleEndianBytes([16_384, -16_384, 8_192, -8_192, 4_096, -32_768]))
    }

    func testPauseResumeDrainAndDropKeepTheBookkeeping() throws {
        let output = try ALSAOutput(device: ALSATestConfig.device(capturingInto: directory.file("out.raw")))
        try output.open(sampleRate: 48_000, channels: 2)
        let second = [Float](repeating: 0.1, count: 48_000 * 2)
        try second.withUnsafeBufferPointer { _ = try output.write($0) }
        XCTAssertEqual(output.writtenFrames, 48_000)
        XCTAssertLessThanOrEqual(output.playedFrames, output.writtenFrames)

        let dropped = try output.pause()
        XCTAssertTrue(output.isPaused)
        XCTAssertEqual(output.writtenFrames, 48_000 - dropped)
        XCTAssertThrowsError(try second.withUnsafeBufferPointer { try output.write($0) }) {
            XCTAssertEqual($0 as? AudioOutputError, .paused(device: output.device))
        }
        XCTAssertEqual(try output.pause(), 0, "pausing twice changes nothing")

        try output.resume()
        XCTAssertFalse(output.isPaused)
        try second.withUnsafeBufferPointer { _ = try output.write($0) }
        try output.drain()
        XCTAssertEqual(output.playedFrames, output.writtenFrames)
        XCTAssertEqual(output.writtenFrames, 96_000 - dropped)

        try output.drop()
        XCTAssertEqual(output.writtenFrames, 0)
        XCTAssertEqual(output.playedFrames, 0)
        XCTAssertEqual(output.underruns, 0)
        XCTAssertFalse(output.canChangeRate)
    }

    func testMisuseIsATypedError() throws {
        let output = try ALSAOutput(device: ALSATestConfig.device(capturingInto: directory.file("out.raw")))
        let three: [Float] = [0, 0, 0]
        XCTAssertThrowsError(try three.withUnsafeBufferPointer { try output.write($0) }) {
            XCTAssertEqual($0 as? AudioOutputError, .notOpen(device: output.device))
        }
        try output.open(sampleRate: 44_100, channels: 2)
        XCTAssertThrowsError(try three.withUnsafeBufferPointer { try output.write($0) }) {
            XCTAssertEqual($0 as? AudioOutputError, .invalidBuffer(device: output.device, samples: 3, channels: 2))
        }
        output.close()
        XCTAssertNil(output.format)
        XCTAssertThrowsError(try three.withUnsafeBufferPointer { try output.write($0) })
        try output.open(sampleRate: 44_100, channels: 1)
        XCTAssertEqual(try three.withUnsafeBufferPointer { try output.write($0) }, 3, "reopened after close")
    }

    func testAnUnknownDeviceFailsWithALSAsReason() {
        XCTAssertThrowsError(try ALSAOutput(device: "nosuchpcm")) { error in
            guard case .deviceUnavailable("nosuchpcm", let reason)? = error as? AudioOutputError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(reason.contains("Unknown PCM nosuchpcm"), reason)
            XCTAssertTrue("\(error)".hasPrefix("audio output nosuchpcm: cannot open: "), "\(error)")
        }
    }

    func testWithoutADefaultDeviceTheSilentOutputStandsInWithANotice() throws {
        let fallback = try OutputSelection.choose(device: nil)
        XCTAssertTrue(fallback.sink is SilentOutput)
        let notice = try XCTUnwrap(fallback.notice)
        XCTAssertTrue(notice.contains("built-in silent output"), notice)
        XCTAssertTrue(notice.contains("Unknown PCM default"), notice)

        let asked = try OutputSelection.choose(device: "null")
        XCTAssertTrue(asked.sink is SilentOutput)
        XCTAssertNil(asked.notice)

        let named = try OutputSelection.choose(device: ALSATestConfig.device(capturingInto: directory.file("o.raw")))
        XCTAssertTrue(named.sink is ALSAOutput)
        XCTAssertNil(named.notice)

        XCTAssertThrowsError(try OutputSelection.choose(device: "nosuchpcm"), "a named device never falls back")
    }
}
