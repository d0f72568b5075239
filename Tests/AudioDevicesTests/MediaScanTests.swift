import AudioDevices
import Foundation
import XCTest

final class MediaScanTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func touch(_ relative: String) throws {
        let path = directory.file(relative)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try TestAudio.writeBytes(path, [1])
    }

    func testADirectoryExpandsToItsAudioFilesInNaturalOrder() throws {
        for name in ["album/10 Ten.flac", "album/2 Two.WAV", "album/1 One.mp3", "album/cover.jpg",
                     "album/.hidden.wav", "album/CD2/01 Disc two.ogg", "album/notes.txt"] {
            try touch(name)
        }
        let scan = MediaScan.expand([directory.file("album")])
        XCTAssertEqual(scan.files.map(\.description), ["1 One.mp3", "2 Two.WAV", "10 Ten.flac", "CD2/01 Disc two.ogg"]
            .map { directory.file("album/" + $0) })
        XCTAssertEqual(scan.problems, [])
    }

    func testFileArgumentsAreKeptAsGivenInArgumentOrder() throws {
        try touch("b.wav")
        try touch("a.txt")
        try touch("dir/x.flac")
        let scan = MediaScan.expand([directory.file("b.wav"), directory.file("dir"), directory.file("a.txt")])
        XCTAssertEqual(scan.files.map(\.description), [directory.file("b.wav"), directory.file("dir/x.flac"), directory.file("a.txt")])
    }

    func testMissingArgumentsAndDirectoriesWithoutAudioAreReported() throws {
        try touch("photos/a.jpg")
        try touch("song.wav")
        let missing = directory.file("gone")
        let scan = MediaScan.expand([missing, directory.file("photos"), directory.file("song.wav")])
        XCTAssertEqual(scan.files.map(\.description), [directory.file("song.wav")])
        XCTAssertEqual(scan.problems.map(\.description), [
            "\(missing): No such file or directory",
            "\(directory.file("photos")): no audio files found",
        ])
    }

    func testASymbolicLinkLoopEnds() throws {
        try touch("music/a.wav")
        try FileManager.default.createSymbolicLink(atPath: directory.file("music/loop"),
                                                   withDestinationPath: directory.file("music"))
        let scan = MediaScan.expand([directory.file("music")])
        XCTAssertEqual(scan.files.map(\.description), [directory.file("music/a.wav")])
    }

    func testADanglingLinkIsReportedAndTheRestIsKept() throws {
        try touch("music/a.wav")
        try FileManager.default.createSymbolicLink(atPath: directory.file("music/b.wav"),
                                                   withDestinationPath: directory.file("nowhere.wav"))
        let scan = MediaScan.expand([directory.file("music")])
        XCTAssertEqual(scan.files.map(\.description), [directory.file("music/a.wav")])
        XCTAssertEqual(scan.problems.map(\.description), ["\(directory.file("music/b.wav")): No such file or directory"])
    }

    func testAnUnreadableDirectoryIsReported() throws {
        try XCTSkipIf(geteuid() == 0, "root reads any directory")
        try touch("locked/a.wav")
        try touch("open/b.wav")
        chmod(directory.file("locked"), 0)
        defer { chmod(directory.file("locked"), 0o755) }
        let scan = MediaScan.expand([directory.path])
        XCTAssertEqual(scan.files.map(\.description), [directory.file("open/b.wav")])
        XCTAssertEqual(scan.problems.map(\.path), [directory.file("locked")])
    }

    func testANameThatIsNotUTF8IsFoundAsItsBytes() throws {
        try touch("music/ok.wav")
        let name: [UInt8] = Array(directory.file("music/a").utf8) + [0xFF] + Array(".wav".utf8)
        let fd = open(name.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let scan = MediaScan.expand([directory.file("music")])
        XCTAssertEqual(scan.files.map(\.bytes), [name, Array(directory.file("music/ok.wav").utf8)])
        XCTAssertEqual(scan.files.first?.description, directory.file("music/a\u{FFFD}.wav"))
    }
}
