@testable import AudioPolicyDaemon
import AudioServer
import SessionCore
import XCTest

/// The stream policy's backlog (issue 24): a burst of updates waits as one change (the first
/// one's previous, the last one's current, every lost sink), so it holds two inventories, not one
/// per event; a connection or disconnection keeps its place.
final class ChangeBacklogTests: XCTestCase {
    private func inventory(streams: ClosedRange<UInt32>?) -> AudioInventory {
        var inventory = AudioInventory()
        for index in streams.map(Array.init) ?? [] {
            inventory.streams[StreamID(.playback, index)] = AudioStream(id: StreamID(.playback, index))
        }
        return inventory
    }

    private func updated(_ previous: ClosedRange<UInt32>?, _ current: ClosedRange<UInt32>?) -> InventoryChange {
        InventoryChange(kind: .updated, previous: inventory(streams: previous), current: inventory(streams: current))
    }

    func testABurstOfUpdatesWaitsAsOneChangeFromTheFirstStateToTheLast() {
        var backlog = ChangeBacklog()
        XCTAssertTrue(backlog.add(updated(nil, 1...1), lost: []), "the first waits on its own")
        for last in UInt32(2)...500 {
            XCTAssertFalse(backlog.add(updated(1...(last - 1), 1...last), lost: []))
        }
        XCTAssertEqual(backlog.count, 1)
        let next = backlog.take()
        XCTAssertEqual(next?.change.kind, .updated)
        XCTAssertEqual(next?.change.previous.streams.count, 0, "the state before the burst")
        XCTAssertEqual(next?.change.current.streams.count, 500, "the state after it")
        XCTAssertNil(backlog.take())
        XCTAssertTrue(backlog.add(updated(1...500, 1...499), lost: []), "after the take, a change waits on its own again")
    }

    /// Our duck lands, then the server puts the volume we ducked from back: folded, the stream
    /// would look unchanged (full → full) and the duck would never be sent again
    /// (`StreamSettlingTests.testTheServerPuttingBackTheVolumeWeDuckedFromIsDuckedAgain`, which
    /// failed under load with every update folded). A stream that changed while new folds.
    func testAStreamChangingAgainWaitsOnItsOwnSoNoStateInBetweenIsLost() {
        let id = StreamID(.playback, 1)
        let full = ChannelVolume(uniform: ChannelVolume.norm, count: 2)
        let ducked = full.scaled(by: StreamPolicy.duckRatio)
        func with(_ volume: ChannelVolume) -> AudioInventory {
            var inventory = AudioInventory()
            inventory.streams[id] = AudioStream(id: id, volume: volume)
            return inventory
        }
        var backlog = ChangeBacklog()
        XCTAssertTrue(backlog.add(InventoryChange(kind: .updated, previous: with(full), current: with(ducked)), lost: []))
        XCTAssertTrue(backlog.add(InventoryChange(kind: .updated, previous: with(ducked), current: with(full)), lost: []),
                      "the put-back waits on its own")
        XCTAssertEqual(backlog.count, 2)
        XCTAssertEqual(backlog.take()?.change.current.streams[id]?.volume, ducked)
        XCTAssertEqual(backlog.take()?.change.current.streams[id]?.volume, full)

        // A new stream's own changes (restore-stream's volume right after it appears) fold.
        XCTAssertTrue(backlog.add(InventoryChange(kind: .updated, previous: AudioInventory(), current: with(full)), lost: []))
        XCTAssertFalse(backlog.add(InventoryChange(kind: .updated, previous: with(full), current: with(ducked)), lost: []))
        XCTAssertFalse(backlog.add(InventoryChange(kind: .updated, previous: with(ducked), current: with(full)), lost: []))
        XCTAssertEqual(backlog.count, 1)
    }

    func testLostSinksOfFoldedUpdatesAreAllKept() {
        var backlog = ChangeBacklog()
        let first = AudioPort(id: "sink-a", name: "Headphones", type: .headphones)
        let second = AudioPort(id: "sink-b", name: "Buds", type: .usbAudio)
        _ = backlog.add(updated(nil, 1...1), lost: [first])
        _ = backlog.add(updated(1...1, 1...2), lost: [second])
        XCTAssertEqual(backlog.take()?.lost.map(\.id), ["sink-a", "sink-b"])
    }

    func testAConnectionAndADisconnectionKeepTheirPlace() {
        var backlog = ChangeBacklog()
        XCTAssertTrue(backlog.add(updated(nil, 1...2), lost: []))
        let gone = InventoryChange(kind: .disconnected(reason: "test"), previous: inventory(streams: 1...2), current: AudioInventory())
        XCTAssertTrue(backlog.add(gone, lost: []), "a disconnection is not folded into the update before it")
        XCTAssertTrue(backlog.add(updated(nil, nil), lost: []), "nor is an update folded into a disconnection")
        let back = InventoryChange(kind: .connected, previous: AudioInventory(), current: inventory(streams: 5...5))
        XCTAssertTrue(backlog.add(back, lost: []))
        XCTAssertFalse(backlog.add(updated(5...5, 5...6), lost: []), "updates after a connection join it")
        XCTAssertEqual(backlog.count, 4)
        XCTAssertEqual(backlog.take()?.change.kind, .updated)
        XCTAssertEqual(backlog.take()?.change.kind, .disconnected(reason: "test"))
        XCTAssertEqual(backlog.take()?.change.kind, .updated)
        let connected = backlog.take()
        XCTAssertEqual(connected?.change.kind, .connected)
        XCTAssertEqual(connected?.change.current.streams.count, 2, "the connection's reset reads the later inventory")
    }
}
