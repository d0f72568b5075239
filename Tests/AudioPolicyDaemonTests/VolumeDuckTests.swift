import AudioServer
@testable import AudioPolicyDaemon
import XCTest

/// The one duck (`VolumeDuck`), for players' `Volume` and streams' volume alike: the arithmetic
/// and every reading of a volume seen while ducked, as tables.
final class VolumeDuckTests: XCTestCase {
    func testLoweringIsTheRatioOfTheFoundVolumeAndSilenceIsNoDuck() throws {
        let player = try XCTUnwrap(VolumeDuck(lowering: 0.8))
        XCTAssertEqual(player.found, 0.8)
        XCTAssertEqual(player.set, 0.8 * duckRatio, accuracy: 1e-12)
        XCTAssertNil(VolumeDuck(lowering: 0.0), "a silent player has nothing to lower")

        // The user's per-app volume in the mixer, 83 % / 79 %: each channel lowered, on the cubic scale.
        let user = ChannelVolume(channels: [ChannelVolume.norm * 83 / 100, ChannelVolume.norm * 79 / 100])
        let stream = try XCTUnwrap(VolumeDuck(lowering: user))
        XCTAssertEqual(stream.found, user)
        XCTAssertEqual(stream.set, user.scaled(by: duckRatio))
        XCTAssertNil(VolumeDuck(lowering: ChannelVolume(channels: [0, 0])))
        XCTAssertEqual(StreamPolicy.duckRatio, ForeignPlayer.duckFactor, "one ratio for both channels")
    }

    func testWhatAVolumeSeenWhileDuckedIs() {
        let duck = VolumeDuck<Double>(found: 0.8, set: 0.24)
        let table: [(seen: Double, reading: VolumeDuck<Double>.Reading, restores: Double?)] = [
            (0.24, .ours, 0.8),  // our own set, echoed: ours, given back at the end
            (0.2403, .ours, 0.8),  // within the player's rounding
            (0.8, .found, nil),  // the value we lowered from: a late echo, or a player ignoring us
            (0.7996, .found, nil),
            (0.5, .usersChoice, nil),  // the user chose it: it stays
            (1.0, .usersChoice, nil),
            (0.0, .usersChoice, nil),
        ]
        for row in table {
            XCTAssertEqual(duck.reading(row.seen), row.reading, "\(row.seen)")
            XCTAssertEqual(duck.restoring(from: row.seen), row.restores, "\(row.seen)")
        }
    }

    func testStreamVolumesReadAlikeUpToTheServersRounding() {
        let found = ChannelVolume(channels: [54_394, 51_773])
        let duck = VolumeDuck(found: found, set: found.scaled(by: duckRatio))
        let offByRounding = ChannelVolume(channels: duck.set.channels.map { $0 + 30 })
        XCTAssertEqual(duck.reading(offByRounding), .ours, "PipeWire stores floats: within 1/1000")
        XCTAssertEqual(duck.restoring(from: offByRounding), found, "the user's value exactly, not ours rounded")
        XCTAssertEqual(duck.reading(found), .found)
        XCTAssertEqual(duck.reading(ChannelVolume(channels: [found.channels[0], duck.set.channels[1]])), .usersChoice,
                       "one channel moved by the user is the user's choice")
        XCTAssertEqual(duck.reading(ChannelVolume(uniform: ChannelVolume.norm, count: 2)), .usersChoice)
    }

    func testAPlayerIgnoringItsVolumeCanOnlyBeToldFromAnAudibleDuck() {
        XCTAssertTrue(VolumeDuck<Double>(found: 0.5, set: 0.15).isAudible)
        XCTAssertFalse(VolumeDuck<Double>(found: 0.0005, set: 0.00015).isAudible, "lowered within rounding: nothing to tell")
    }
}
