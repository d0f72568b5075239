import AudioDevices
import Foundation
import TestSupport
import XCTest

/// The system volume through real alsa-lib: the fake card's `Master` (0–87, two channels), changed
/// by the real `amixer` in a child process, as a user's mixer would.
final class MixerVolumeTests: XCTestCase {
    private var card: FakeSoundCard!

    override func setUpWithError() throws {
        card = try FakeSoundCard(FakeSoundCard.State(headphones: true, volume: (60, 60)))
        FakeCardConfig.activate(card)
    }

    override func tearDown() {
        FakeCardConfig.deactivate()
        card = nil
    }

    private func volume(_ record: EventRecord<OutputVolume>) throws -> MixerVolume {
        try MixerVolume(control: FakeSoundCard.control) { record.append($0) }
    }

    private func amixer(_ arguments: String...) async throws {
        let result = try await card.amixer(arguments)
        XCTAssertEqual(result.status, 0, "amixer \(arguments): \(result.stderr)")
    }

    func testTheInitialVolumeIsRead() throws {
        let mixer = try volume(EventRecord())
        defer { mixer.stop() }
        XCTAssertEqual(mixer.element, "Master")
        XCTAssertEqual(mixer.current.level, 60.0 / 87.0, accuracy: 1e-9)
        XCTAssertFalse(mixer.current.muted)
    }

    func testAVolumeSetWithAmixerArrivesAsAChange() async throws {
        let record = EventRecord<OutputVolume>()
        let mixer = try volume(record)
        defer { mixer.stop() }

        try await amixer("sset", "Master", "30")
        let change = try await record.wait(for: "volume 30/87", timeout: .seconds(5)) { $0.last }
        XCTAssertEqual(change.level, 30.0 / 87.0, accuracy: 1e-9)
        XCTAssertFalse(change.muted)
        XCTAssertEqual(mixer.current, change)
        XCTAssertEqual(try card.state().volume.left, 30, "amixer and the library see the same card")
    }

    func testMuteAndUnmuteWithAmixerArriveAsChanges() async throws {
        let record = EventRecord<OutputVolume>()
        let mixer = try volume(record)
        defer { mixer.stop() }

        try await amixer("sset", "Master", "mute")
        let muted = try await record.wait(for: "muted", timeout: .seconds(5)) { $0.first }
        XCTAssertTrue(muted.muted)
        XCTAssertEqual(muted.level, 60.0 / 87.0, accuracy: 1e-9, "muting keeps the level")

        try await amixer("sset", "Master", "unmute")
        let unmuted = try await record.wait(for: "unmuted", timeout: .seconds(5)) { $0.count >= 2 ? $0[1] : nil }
        XCTAssertFalse(unmuted.muted)
        XCTAssertEqual(record.elements.count, 2, "one callback per change: \(record.elements)")
    }

    func testTheLevelIsTheAverageOfTheChannels() async throws {
        let record = EventRecord<OutputVolume>()
        let mixer = try volume(record)
        defer { mixer.stop() }
        try card.setVolume(left: 87, right: 0)
        let change = try await record.wait(for: "balance change", timeout: .seconds(5)) { $0.first }
        XCTAssertEqual(change.level, 0.5, accuracy: 1e-9)
    }

    func testTheMixerIsNeverWritten() async throws {
        // The plugin replaces the file (a new inode) on every write through alsa-lib.
        let created = try FileIdentity(card.statePath)
        let record = EventRecord<OutputVolume>()
        let mixer = try volume(record)
        XCTAssertEqual(try FileIdentity(card.statePath), created, "opening the mixer wrote the card")
        try card.setVolume(left: 10, right: 10)
        let written = try FileIdentity(card.statePath)
        try await record.wait(for: "volume 10", timeout: .seconds(5)) { $0.first }
        mixer.stop()

        XCTAssertEqual(try FileIdentity(card.statePath), written, "following the change wrote the card")
        XCTAssertEqual(try card.state().volume.left, 10)
    }

    func testAmixerSeesTheSameCard() async throws {
        let mixer = try volume(EventRecord())
        defer { mixer.stop() }
        let sget = try await card.amixer(["sget", "Master"])
        XCTAssertEqual(sget.status, 0, sget.stderr)
        XCTAssertTrue(sget.stdout.contains("Front Left: Playback 60 [69%] [on]"), sget.stdout)
        XCTAssertEqual(mixer.current, OutputVolume(level: 60.0 / 87.0, muted: false))

        try card.setHeadphones(plugged: false)
        let contents = try await card.amixer(["contents"])
        XCTAssertEqual(contents.status, 0, contents.stderr)
        let lines = contents.stdout.split(separator: "\n").map(String.init)
        let headphone = try XCTUnwrap(lines.firstIndex { $0.contains("name='Headphone Jack'") }, contents.stdout)
        XCTAssertTrue(lines[headphone].contains("iface=CARD"))
        XCTAssertEqual(lines[headphone + 2].trimmingCharacters(in: .whitespaces), ": values=off", contents.stdout)
    }

    func testAControlDeviceThatDoesNotExistIsAClearError() {
        XCTAssertThrowsError(try MixerVolume(control: "nosuchcard") { _ in }) { error in
            guard case ALSAControlError.deviceUnavailable(let control, let reason) = error else {
                return XCTFail("not deviceUnavailable: \(error)")
            }
            XCTAssertEqual(control, "nosuchcard")
            XCTAssertTrue(reason.contains("nosuchcard"), reason)
            XCTAssertTrue("\(error)".hasPrefix("control device nosuchcard: cannot open: "), "\(error)")
        }
    }

    func testTheVolumeThreadDoesNotWakeWhileNothingChanges() throws {
        let mixer = try volume(EventRecord())
        defer { mixer.stop() }
        let thread = try XCTUnwrap(ThreadSwitches.thread(named: "mixer-volume"), "the volume's thread")
        let first = ThreadSwitches.count(thread)
        Thread.sleep(forTimeInterval: 1)  // time is the subject here: an idle second
        XCTAssertNotNil(first)
        XCTAssertEqual(first, ThreadSwitches.count(thread), "context switches of the idle volume thread over 1 s")
    }
}
