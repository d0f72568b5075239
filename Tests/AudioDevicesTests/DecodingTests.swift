import AudioDevices
import CSndfile
import XCTest

final class DecodingTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    /// Decodes the whole file in chunks of `chunkFrames`.
    private func decodeAll(_ file: AudioFile, chunkFrames: Int = 1000) throws -> [Float] {
        var result: [Float] = []
        var buffer = [Float](repeating: 0, count: chunkFrames * file.info.channels)
        while true {
            let got = try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }
            if got == 0 { break }
            result += buffer[0..<(got * file.info.channels)]
        }
        return result
    }

    private func expectedFloats(_ samples: [Int16]) -> [Float] {
        samples.map { Float($0) / 32768 }
    }

    func testWAV16BitStereo44100DecodesSampleExact() throws {
        let samples = TestAudio.samples(frames: 44_100, channels: 2)
        let path = directory.file("stereo.wav")
        try TestAudio.write(path, .wav16, sampleRate: 44_100, channels: 2, samples: samples)

        let file = try AudioFile(path: path)
        XCTAssertEqual(file.info.sampleRate, 44_100)
        XCTAssertEqual(file.info.channels, 2)
        XCTAssertEqual(file.info.frames, 44_100)
        XCTAssertTrue(file.info.isSeekable)
        XCTAssertEqual(file.info.duration, 1.0, accuracy: 1e-9)
        XCTAssertTrue(file.info.formatName.hasPrefix("WAV"), file.info.formatName)
        XCTAssertEqual(file.info.encodingName, "Signed 16 bit PCM")
        XCTAssertEqual(try decodeAll(file, chunkFrames: 777), expectedFloats(samples))
    }

    func testFLAC16BitMono48000DecodesSampleExact() throws {
        let samples = TestAudio.samples(frames: 48_000, channels: 1)
        let path = directory.file("mono.flac")
        try TestAudio.write(path, .flac16, sampleRate: 48_000, channels: 1, samples: samples)

        let file = try AudioFile(path: path)
        XCTAssertEqual(file.info.sampleRate, 48_000)
        XCTAssertEqual(file.info.channels, 1)
        XCTAssertEqual(file.info.frames, 48_000)
        XCTAssertTrue(file.info.formatName.hasPrefix("FLAC"), file.info.formatName)
        XCTAssertEqual(try decodeAll(file), expectedFloats(samples))
    }

    func testSeekMovesTheNextReadToThatFrame() throws {
        let samples = TestAudio.samples(frames: 10_000, channels: 2)
        let path = directory.file("seek.flac")
        try TestAudio.write(path, .flac16, sampleRate: 44_100, channels: 2, samples: samples)
        let file = try AudioFile(path: path)

        XCTAssertEqual(try file.seek(toFrame: 6_543), 6_543)
        var buffer = [Float](repeating: 0, count: 20)
        XCTAssertEqual(try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }, 10)
        XCTAssertEqual(buffer, expectedFloats(Array(samples[13_086..<13_106])))

        XCTAssertEqual(try file.seek(toFrame: 20_000), 10_000, "clamped to the end")
        XCTAssertEqual(try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }, 0)
        XCTAssertEqual(try file.seek(toFrame: -5), 0, "clamped to the start")
        XCTAssertEqual(try buffer.withUnsafeMutableBufferPointer { try file.read(into: $0) }, 10)
        XCTAssertEqual(buffer, expectedFloats(Array(samples[0..<20])))
    }

    func testTagsRoundTripThroughWAVAndFLAC() throws {
        let written: [Int32: String] = [
            Int32(SF_STR_TITLE): "Blue Train", Int32(SF_STR_ARTIST): "John Coltrane",
            Int32(SF_STR_ALBUM): "Blue Train (1957)", Int32(SF_STR_TRACKNUMBER): "3/5",
            Int32(SF_STR_DATE): "1957", Int32(SF_STR_GENRE): "Jazz", Int32(SF_STR_COMMENT): "mono master",
        ]
        for (container, name) in [(TestAudio.Container.flac16, "tags.flac"), (.wav16, "tags.wav")] {
            let path = directory.file(name)
            try TestAudio.write(path, container, sampleRate: 44_100, channels: 2,
                                samples: TestAudio.samples(frames: 100, channels: 2), tags: written)
            let file = try AudioFile(path: path)
            XCTAssertEqual(file.tags.title, "Blue Train", name)
            XCTAssertEqual(file.tags.artist, "John Coltrane", name)
            XCTAssertEqual(file.tags.album, "Blue Train (1957)", name)
            XCTAssertEqual(file.tags.trackNumber, 3, name)
            XCTAssertEqual(file.tags.date, "1957", name)
            XCTAssertEqual(file.tags.genre, "Jazz", name)
            XCTAssertEqual(file.tags.comment, "mono master", name)
            XCTAssertNil(file.tags.albumArtist, "libsndfile has no album artist")
            XCTAssertEqual(file.displayTitle, "Blue Train")
        }
    }

    func testAFileWithoutTagsFallsBackToItsNameAsTitle() throws {
        let path = directory.file("07 Moment's Notice.wav")
        try TestAudio.write(path, .wav16, sampleRate: 44_100, channels: 1,
                            samples: TestAudio.samples(frames: 10, channels: 1))
        let file = try AudioFile(path: path)
        XCTAssertEqual(file.tags, Tags())
        XCTAssertEqual(file.displayTitle, "07 Moment's Notice")
        XCTAssertEqual(Tags.fallbackTitle(forPath: "/a/b.c/song.tar.flac"), "song.tar")
        XCTAssertEqual(Tags.fallbackTitle(forPath: "noextension"), "noextension")
        XCTAssertEqual(Tags.fallbackTitle(forPath: "/music/.flac"), ".flac")
    }

    func testTheInstalledLibsndfileReportsItsFormats() {
        let formats = SupportedFormats.installed
        XCTAssertTrue(formats.containers.contains { $0.name.hasPrefix("WAV") && $0.fileExtension == "wav" })
        XCTAssertTrue(formats.decodesFLAC)
        XCTAssertTrue(formats.encodings.contains("Signed 16 bit PCM"))
        XCTAssertTrue(formats.fileExtensions.isSuperset(of: ["wav", "flac", "aiff", "aif"]))
        XCTAssertFalse(formats.fileExtensions.contains("raw"))
        XCTAssertEqual(formats.decodesMP3, formats.containers.contains { $0.name.hasPrefix("MPEG") })
        XCTAssertEqual(formats.fileExtensions.contains("mp3"), formats.decodesMP3)
        XCTAssertEqual(formats.missingFormat(forPath: "x.MP3") == nil, formats.decodesMP3)
        XCTAssertEqual(formats.missingFormat(forPath: "x.m4a"), "AAC")
        XCTAssertNil(formats.missingFormat(forPath: "x.wav"))
    }
}
