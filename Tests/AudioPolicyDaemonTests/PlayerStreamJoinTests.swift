import AudioServer
@testable import AudioPolicyDaemon
import FoundationEssentials
import XCTest

/// The players joined with their streams (`PlayerStreamJoin`): the process-tree rule, pure; and
/// the process trees read once per stream (`StreamProcessTrees`), from a test's `/proc`.
final class PlayerStreamJoinTests: XCTestCase {
    private let browser = "org.mpris.MediaPlayer2.chromium.instance100"
    private let mpv = "org.mpris.MediaPlayer2.mpv"
    private let launcher = "org.mpris.MediaPlayer2.launcher"
    private let mpvTwin = "org.mpris.MediaPlayer2.mpv.second"

    private func placed(_ chain: [Int32], on sink: String? = "speakers") -> PlayerStreamJoin.Placed {
        PlayerStreamJoin.Placed(chain: chain, sink: sink)
    }

    func testAStreamOfADescendantIsItsPlayersAndTheNearestOwnerWins() {
        var join = PlayerStreamJoin(connected: true)
        // The browser's audio process (101) under the browser (100) under the launcher (10).
        join.streams = [StreamID(.playback, 1): placed([101, 100, 10])]
        let pids: [String: Int32] = [launcher: 10, browser: 100, mpv: 200]
        let presence = join.presence(of: [browser, mpv, launcher], pids: pids)
        XCTAssertEqual(presence[browser], .some(true))
        XCTAssertEqual(presence[mpv], .some(false))
        XCTAssertEqual(presence[launcher], .some(false), "the nearest owner has it, not every ancestor")
        XCTAssertEqual(join.streams(of: pids), [browser: [StreamID(.playback, 1)]])
    }

    func testPlayersOfOneProcessShareItsStreams() {
        var join = PlayerStreamJoin(connected: true)
        join.streams = [StreamID(.playback, 2): placed([200]), StreamID(.playback, 1): placed([200])]
        let owned = join.streams(of: [mpv: 200, mpvTwin: 200])
        XCTAssertEqual(owned[mpv], [StreamID(.playback, 1), StreamID(.playback, 2)])
        XCTAssertEqual(owned[mpvTwin], owned[mpv])
    }

    func testUnknownWithoutAServerOrAProcess() {
        var join = PlayerStreamJoin(connected: true)
        join.streams = [StreamID(.playback, 1): placed([200])]
        XCTAssertEqual(join.presence(of: [browser], pids: [mpv: 200])[browser], .some(nil), "its process is not known yet")
        join.connected = false
        XCTAssertEqual(join.presence(of: [mpv], pids: [mpv: 200])[mpv], .some(nil), "no server: nothing is known to be gone")
        XCTAssertNil(join.audibleSinks(of: [mpv: 200]))
    }

    func testAStreamWithoutAProcessIsNobodys() {
        var join = PlayerStreamJoin(connected: true)
        join.streams = [StreamID(.playback, 1): placed([])]
        XCTAssertEqual(join.presence(of: [mpv], pids: [mpv: 200])[mpv], .some(false))
    }

    func testAudibleSinksAreEachPlayersOwnSinksSorted() {
        var join = PlayerStreamJoin(connected: true)
        join.streams = [
            StreamID(.playback, 1): placed([200], on: "usb-dac"),
            StreamID(.playback, 2): placed([200], on: "hdmi"),
            StreamID(.playback, 3): placed([200], on: "usb-dac"),
            StreamID(.playback, 4): placed([101, 100], on: nil),  // being moved: no known sink
        ]
        let audible = join.audibleSinks(of: [mpv: 200, browser: 100, launcher: 10])
        XCTAssertEqual(audible, [mpv: ["hdmi", "usb-dac"]], "a stream on no known sink makes nobody audible")
    }

    func testTheJoinOfAnInventoryHoldsOnlyPlaybackStreamsWithTheirSinks() throws {
        let proc = try FakeProc(parents: [300: 1, 301: 300])
        defer { proc.remove() }
        let trees = StreamProcessTrees(root: proc.root)
        let sink = AudioDevice(id: DeviceID(.sink, 7), name: "speakers")
        let inventory = AudioInventory(server: ServerIdentity(name: "test", version: "1", cookie: 1), streams: [
            StreamID(.playback, 1): stream(.playback, 1, pid: 301, device: 7),
            StreamID(.capture, 2): stream(.capture, 2, pid: 301, device: 7),
        ], devices: [sink.id: sink])
        let join = PlayerStreamJoin.of(inventory, connected: true, trees: trees)
        XCTAssertEqual(join.streams, [StreamID(.playback, 1): placed([301, 300], on: "speakers")])
        XCTAssertEqual(join.audibleSinks(of: [mpv: 300]), [mpv: ["speakers"]])
    }

    func testTreesAreReadOnceAStreamAndAgainForAReusedIndex() throws {
        let proc = try FakeProc(parents: [300: 1, 301: 300, 400: 1])
        defer { proc.remove() }
        let trees = StreamProcessTrees(root: proc.root)
        let first = stream(.playback, 1, pid: 301)
        XCTAssertEqual(trees.chain(of: first), [301, 300])
        // Its process moves under another parent: the tree read when the stream came is kept.
        try proc.set(parent: 400, of: 301)
        XCTAssertEqual(trees.chain(of: first), [301, 300], "read once per stream")
        // PipeWire gives the index to another process's stream: read again.
        XCTAssertEqual(trees.chain(of: stream(.playback, 1, pid: 400)), [400])
        XCTAssertEqual(trees.chain(of: stream(.playback, 9)), [], "no process: no tree")

        // The inventory's changes read the new streams and forget those that went.
        trees.follow(AudioInventory(streams: [StreamID(.playback, 2): stream(.playback, 2, pid: 301)]))
        XCTAssertEqual(trees.count, 1)
        try proc.set(parent: 300, of: 301)
        XCTAssertEqual(trees.chain(of: stream(.playback, 2, pid: 301)), [301, 400], "read when the inventory showed it")
        trees.follow(AudioInventory())
        XCTAssertEqual(trees.count, 0)
    }

    private func stream(_ direction: StreamDirection, _ index: UInt32, pid: Int32? = nil, device: UInt32 = 0) -> AudioStream {
        AudioStream(id: StreamID(direction, index), processID: pid, deviceIndex: device)
    }
}

/// A `/proc` of `PID/stat` files in a temporary directory, for `ProcessAncestry`.
private struct FakeProc {
    let root: String

    init(parents: [Int32: Int32]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(UUID().uuidString)").path
        for (pid, parent) in parents { try set(parent: parent, of: pid) }
    }

    func set(parent: Int32, of pid: Int32) throws {
        let directory = "\(root)/\(pid)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The command name holds a space and a parenthesis, as real ones may.
        try Data("\(pid) (a (b) c) S \(parent) 1 1 0\n".utf8).write(to: URL(fileURLWithPath: "\(directory)/stat"))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
