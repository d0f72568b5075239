@testable import AudioPolicyDaemon
import AudioServer
import Foundation
@testable import PolicyJournal
import Synchronization
@testable import SystemContext
import XCTest

/// Stream entries in the journal: exact round trips of channel volumes and restore keys, kept
/// beside the players' entries (whoever rewrites the file for the players keeps them), damaged
/// lines skipped; and the process ancestry a stream is placed by.
final class StreamJournalTests: XCTestCase {
    private var directory: String!
    private var file: StateFile { StateFile(path: directory + "/state/mprisd/journal") }

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "mprisd-streamjournal-\(UUID().uuidString.prefix(8))"
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    private let music = StreamRestoreKey(value: "role:music")
    private let odd = StreamRestoreKey(value: "app:Some App (beta) 100%")

    func testStreamEntriesRoundTripExactly() {
        let streams = [
            StreamJournalEntry(cookie: 0xdead_beef, index: 7, key: music,
                               change: .volume(found: ChannelVolume(channels: [52_429, 40_000]),
                                               set: ChannelVolume(channels: [15_729, 12_000]))),
            StreamJournalEntry(cookie: 1, index: 8, key: odd, change: .mute),
        ]
        _ = ChangeJournal(file: file, streams: streams, log: { XCTFail($0) })
        XCTAssertEqual(ChangeJournal.readStreams(file, log: { XCTFail($0) }), streams)
        XCTAssertEqual(ChangeJournal.read(file, log: { XCTFail($0) }), [], "no player entries, and no complaint")
        let text = (try? String(contentsOfFile: file.path, encoding: .utf8)) ?? ""
        XCTAssertTrue(text.contains("streamvolume 3735928559 7 role:music 52429,40000 15729,12000"), text)
        XCTAssertTrue(text.contains("streammute 1 8 app:Some%20App%20%28beta%29%20100%25"), text)
    }

    func testPlayerAndStreamEntriesLiveSideBySide() {
        let player = JournalEntry(player: "org.mpris.MediaPlayer2.mpv", owner: ":1.7", change: .volume(found: 0.8, set: 0.24))
        let stream = StreamJournalEntry(cookie: 3, index: 4, key: music, change: .mute)
        let journal = ChangeJournal(file: file, log: { XCTFail($0) })
        journal.record(player)
        journal.record(stream)
        // The journal guard rewrites the file for what it could not undo of the players: the
        // streams stay, for the next daemon.
        let streams = ChangeJournal.readStreams(file, log: { XCTFail($0) })
        _ = ChangeJournal(file: file, entries: [], streams: streams, log: { XCTFail($0) })
        XCTAssertEqual(ChangeJournal.readStreams(file, log: { XCTFail($0) }), [stream])
        let again = ChangeJournal(file: file, entries: [], streams: streams, log: { XCTFail($0) })
        again.forgetStreams { $0 == stream }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "gone once nothing is left")
    }

    func testOneStreamEntryPerKindAndStream() {
        let journal = ChangeJournal(file: file, log: { XCTFail($0) })
        let first = StreamJournalEntry(cookie: 3, index: 4, key: music,
                                       change: .volume(found: ChannelVolume(uniform: 65_536, count: 2),
                                                       set: ChannelVolume(uniform: 19_661, count: 2)))
        let second = StreamJournalEntry(cookie: 3, index: 4, key: music,
                                        change: .volume(found: ChannelVolume(uniform: 30_000, count: 2),
                                                        set: ChannelVolume(uniform: 9_000, count: 2)))
        let mute = StreamJournalEntry(cookie: 3, index: 4, key: music, change: .mute)
        let otherServer = StreamJournalEntry(cookie: 9, index: 4, key: music, change: .mute)
        for entry in [first, second, mute, otherServer] { journal.record(entry) }
        XCTAssertEqual(journal.currentStreams, [second, mute, otherServer])
    }

    func testDamagedStreamLinesAreSkipped() throws {
        try StateFile.makeDirectory(file.directory)
        let lines = [
            "streamvolume 1 2 role:music 65536,65536 19661",        // channel counts differ
            "streamvolume 1 2 role:music 65536 4294967295",         // not a valid pa_volume_t
            "streamvolume x 2 role:music 65536 19661",              // cookie
            "streammute 1 2",                                        // no key
            "streammute 1 2 role:music extra",                       // too many fields
            "streammute 1 2 role:music",
        ]
        try lines.joined(separator: "\n").write(toFile: file.path, atomically: true, encoding: .utf8)
        let entries = ChangeJournal.readStreams(file, log: { _ in })
        XCTAssertEqual(entries, [StreamJournalEntry(cookie: 1, index: 2, key: music, change: .mute)])
        let complaints = Mutex(0)
        _ = ChangeJournal.read(file, log: { _ in complaints.withLock { $0 += 1 } })
        XCTAssertEqual(complaints.withLock { $0 }, 5, "each damaged line is reported once")
    }

    func testRestoreKeysFollowTheRestoreDatabases() {
        XCTAssertEqual(StreamRestoreKey(AudioStream(id: StreamID(.playback, 1), applicationName: "paplay", role: "Music",
                                                    properties: ["media.role": "Music", "application.name": "paplay"])),
                       StreamRestoreKey(value: "sink-input-by-media-role:music"),
                       "the server's key, without regard to case (pipewire-pulse hands roles on capitalised)")
        XCTAssertEqual(StreamRestoreKey(AudioStream(id: StreamID(.playback, 1), applicationName: "Firefox",
                                                    properties: ["application.name": "Firefox"])),
                       StreamRestoreKey(value: "sink-input-by-application-name:Firefox"))
        XCTAssertNil(StreamRestoreKey(AudioStream(id: StreamID(.playback, 1))))
    }

    // MARK: Process ancestry

    func testTheParentIsReadAfterTheLastParenthesis() {
        XCTAssertEqual(ProcessAncestry.parent(inStat: "42 (a) b) c) S 17 42 42 0 -1"), 17)
        XCTAssertEqual(ProcessAncestry.parent(inStat: "42 (paplay) S 1 42 42"), 1)
        XCTAssertNil(ProcessAncestry.parent(inStat: "42 paplay S 1"))
        XCTAssertNil(ProcessAncestry.parent(inStat: "42 (x) S"))
    }

    func testTheChainOfThisProcessReachesItsParent() {
        let me = getpid()
        let chain = ProcessAncestry.chain(from: me)
        XCTAssertEqual(chain.first, me)
        XCTAssertTrue(chain.contains(getppid()) || getppid() == 1, "\(chain)")
        XCTAssertEqual(ProcessAncestry.chain(from: Int32.max), [], "no such process")
    }

    /// The key's encoding in the journal is the one Foundation's `addingPercentEncoding` made before
    /// the daemon dropped Foundation's internationalization part (issue 17): journals written by an
    /// older daemon read back, and both ways agree on every kind of character.
    func testRestoreKeyEncodingIsFoundationsPercentEncoding() throws {
        let plain = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:._-")
        for value in ["role:music", "app:Some App (beta) 100%", "sink-input-by-application-name:Café ☕ 音楽",
                      "a%2", "tab\there\nnewline", "emoji:👩‍👩‍👧", String(repeating: "é", count: 300)] {
            let key = StreamRestoreKey(value: value)
            XCTAssertEqual(key.encoded, value.addingPercentEncoding(withAllowedCharacters: plain), value)
            XCTAssertEqual(StreamRestoreKey(encoded: Substring(key.encoded))?.value, value, value)
        }
        XCTAssertEqual(StreamRestoreKey(encoded: "caf%c3%a9")?.value, "café", "lower-case hex is read, as Foundation reads it")
        for bad in ["", "%", "%4", "%zz", "%ff", String(repeating: "x", count: 1025)] {
            XCTAssertNil(StreamRestoreKey(encoded: Substring(bad)), "'\(bad.prefix(20))' is refused")
        }
    }
}
