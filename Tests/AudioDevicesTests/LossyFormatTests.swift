import AudioDevices
import CSndfile
import XCTest

/// Ogg Vorbis, Opus and MP3, each where the installed libsndfile has it (Debian's has all three):
/// encoded by libsndfile, decoded back to a 440 Hz tone of the right length and loudness, tags intact.
final class LossyFormatTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func roundTrip(_ name: String, format: Int) throws {
        let path = directory.file(name)
        var info = SF_INFO()
        info.samplerate = 48_000
        info.channels = 2
        info.format = Int32(format)
        let tone = (0..<48_000).flatMap { frame -> [Float] in
            let value = Float(0.5 * sin(Double(frame) * 2 * .pi * 440 / 48_000))
            return [value, value]
        }
        let encoder = try XCTUnwrap(sf_open(path, Int32(SFM_WRITE), &info), String(cString: sf_strerror(nil)))
        XCTAssertEqual(sf_set_string(encoder, Int32(SF_STR_TITLE), "Tone"), 0)
        XCTAssertEqual(sf_set_string(encoder, Int32(SF_STR_ARTIST), "Oscillator"), 0)
        _ = tone.withUnsafeBufferPointer { sf_writef_float(encoder, $0.baseAddress, 48_000) }
        sf_close(encoder)

        let file = try AudioFile(path: path)
        XCTAssertEqual(file.info.sampleRate, 48_000, name)
        XCTAssertEqual(file.info.channels, 2, name)
        XCTAssertEqual(file.tags.title, "Tone", name)
        XCTAssertEqual(file.tags.artist, "Oscillator", name)
        var decoded: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096 * 2)
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }
            if frames == 0 { break }
            decoded += buffer[0..<(frames * 2)]
        }
        XCTAssertEqual(Double(decoded.count / 2), 48_000, accuracy: 48_000 * 0.02, name)
        let rms = (decoded.reduce(0) { $0 + Double($1) * Double($1) } / Double(decoded.count)).squareRoot()
        XCTAssertEqual(rms, 0.5 / 2.0.squareRoot(), accuracy: 0.05, "\(name): the tone survives")
    }

    func testOggVorbis() throws {
        try XCTSkipUnless(SupportedFormats.installed.decodesVorbis, "this libsndfile has no Vorbis")
        try roundTrip("tone.ogg", format: SF_FORMAT_OGG | SF_FORMAT_VORBIS)
    }

    func testOpus() throws {
        try XCTSkipUnless(SupportedFormats.installed.decodesOpus, "this libsndfile has no Opus")
        try roundTrip("tone.opus", format: SF_FORMAT_OGG | SF_FORMAT_OPUS)
    }

    func testMP3() throws {
        try XCTSkipUnless(SupportedFormats.installed.decodesMP3, "this libsndfile has no MP3")
        try roundTrip("tone.mp3", format: SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
    }
}
