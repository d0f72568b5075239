import AudioPolicyDaemon
import DBus
import Foundation
import MPRISDirectory
import SessionCore
import Synchronization
import TestSupport
import XCTest

/// The headset player against the dbusmock bluetoothd (with `Media1.RegisterPlayer`) on a private
/// system bus, real mpv players on a private session bus, and a stub active-player source: what
/// is registered follows the active player, the buttons (sent as bluetoothd sends them) reach the
/// active player and only it, nothing is registered without one, and bluetoothd coming back gets
/// the registration again.
final class HeadsetPlayerTests: BusTestCase {
    private var system: TestBus!
    private var bluez: FakeBluez!
    private var systemConnection: Connection!
    private var headset: HeadsetPlayer!
    private var directory: PlayerDirectory!
    private let source = StubActivePlayer()
    private var mpvs: [MPVPlayer] = []
    private let logged = EventRecord<String>()

    /// Starts the fake bluetoothd and the headset player (`setUp() async` runs before the bus exists).
    private func begin() async throws {
        try XCTSkipUnless(MPVPlayer.isAvailable, "mpv and mpv-mpris are not installed")
        system = try TestBus(.system)
        bluez = try await FakeBluez.start(on: system)
        systemConnection = try Connection(address: system.address)
        let logged = self.logged
        directory = PlayerDirectory(connection: try connect())
        headset = HeadsetPlayer(directory: directory, system: systemConnection, log: { logged.append($0) })
        let headset = self.headset!, source = self.source
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            headset.start(activePlayer: source.subscribe) { continuation.resume(with: $0) }
        }
    }

    override func tearDown() {
        headset?.stop()
        for mpv in mpvs { mpv.kill() }
        systemConnection?.close()
        bluez?.stop()
        system?.stop()
        super.tearDown()
    }

    func testRegistrationFollowsTheActivePlayerAndIsWithdrawnWithoutOne() async throws {
        try await begin()
        let first = try await startMPV()
        let second = try await startMPV(paused: true)

        source.set(first.active)
        let registered = try await bluez.waitForRegisteredPlayer { $0.path == Self.path(of: first) }
        XCTAssertEqual(registered.properties["PlaybackStatus"]?.string, "Playing", "\(registered.properties)")
        XCTAssertEqual(registered.properties["CanControl"]?.bool, true)
        XCTAssertEqual(registered.properties["CanPause"]?.bool, true)
        XCTAssertNotNil(registered.properties["Metadata"]?["xesam:title"]?.string,
                        "metadata complete at registration: \(registered.properties)")
        XCTAssertEqual(registered.properties["Position"]?.typeCode, "x")

        source.set(second.active)
        try await bluez.waitForUnregisteredPlayer(Self.path(of: first))
        let next = try await bluez.waitForRegisteredPlayer { $0.path == Self.path(of: second) }
        XCTAssertEqual(next.properties["PlaybackStatus"]?.string, "Paused")
        XCTAssertEqual(bluez.currentPlayers.map(\.path), [Self.path(of: second)], "exactly one player registered")

        source.set(nil)
        try await bluez.waitForUnregisteredPlayer(Self.path(of: second))
        XCTAssertEqual(bluez.currentPlayers.map(\.path), [], "nothing registered without an active player")
    }

    func testButtonsReachTheActivePlayerAndOnlyIt() async throws {
        try await begin()
        let first = try await startMPV(paused: true)
        let second = try await startMPV(paused: true)
        source.set(first.active)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == Self.path(of: first) }

        try await press("Play", first)
        let playing = await first.waitForStatus("Playing")
        XCTAssertTrue(playing, "PLAY plays the active player: \(logged.elements)")
        let other = try await second.playbackStatus()
        XCTAssertEqual(other, "Paused", "the other player is not touched")

        try await press("Pause", first)
        let paused = await first.waitForStatus("Paused")
        XCTAssertTrue(paused, "PAUSE pauses it: \(logged.elements)")

        source.set(second.active)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == Self.path(of: second) }
        try await press("Play", second)
        let secondPlaying = await second.waitForStatus("Playing")
        XCTAssertTrue(secondPlaying, "PLAY now reaches the new active player: \(logged.elements)")
        let firstAfter = try await first.playbackStatus()
        XCTAssertEqual(firstAfter, "Paused", "and not the old one")
    }

    func testStateChangesOfTheActivePlayerAreAnnouncedToBluetoothd() async throws {
        try await begin()
        let mpv = try await startMPV(paused: true)
        let announced = EventRecord<String>()
        let rule = MatchRule(sender: systemConnection.uniqueName, interface: "org.freedesktop.DBus.Properties",
                             member: "PropertiesChanged", path: try ObjectPath(Self.path(of: mpv)))
        let watcher = try Connection(address: system.address)
        defer { watcher.close() }
        let subscription = try await watcher.subscribe(rule) { signal in
            guard signal.body.count >= 2, case .dictionary(_, _, let entries) = signal.body[1] else { return }
            for entry in entries {
                if entry.key == .string("PlaybackStatus"), case .variant(.string(let status)) = entry.value {
                    announced.append(status)
                }
            }
        }
        defer { subscription.cancel() }
        source.set(mpv.active)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == Self.path(of: mpv) }

        try await mpv.play()
        _ = try await announced.wait(for: "PlaybackStatus Playing announced on the system bus", timeout: .seconds(5)) {
            $0.contains("Playing") ? true : nil
        }
    }

    func testSeeksOfTheActivePlayerAreAnnouncedToBluetoothd() async throws {
        try await begin()
        // A player of our own, which seeks when told (mpv-mpris says nothing of a seek while paused).
        let player = try await FakeMPRISPlayer.toggler(on: connect(), status: "Playing")
        let path = "/org/mprisd/Headset/" + Self.element(player.active.owner)
        let seeked = EventRecord<Int64>()
        let rule = MatchRule(sender: systemConnection.uniqueName, interface: "org.mpris.MediaPlayer2.Player",
                             member: "Seeked", path: try ObjectPath(path))
        let watcher = try Connection(address: system.address)
        defer { watcher.close() }
        let subscription = try await watcher.subscribe(rule) { signal in
            if case .int64(let position)? = signal.body.first { seeked.append(position) }
        }
        defer { subscription.cancel() }
        source.set(player.active)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == path }

        try player.seek(to: 42_000_000)
        let position = try await seeked.wait(for: "Seeked on the registered object: \(logged.elements)",
                                              timeout: .seconds(5)) { $0.first }
        XCTAssertEqual(position, 42_000_000)
    }

    func testPauseIsNeverSentToAPlayerThatIsNotPlaying() async throws {
        try await begin()
        let toggler = try await FakeMPRISPlayer.toggler(on: connect(), status: "Paused")
        source.set(toggler.active)
        let path = "/org/mprisd/Headset/" + Self.element(toggler.active.owner)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == path }

        try await bluez.press("Pause", player: path, of: systemConnection.uniqueName)
        try await bluez.press("Next", player: path, of: systemConnection.uniqueName)
        // The forwarded Next comes after the Pause would have: once it is in, a Pause would be too.
        _ = try await toggler.calls.wait(for: "Next forwarded", timeout: .seconds(5)) { $0.contains("Next") ? true : nil }
        XCTAssertEqual(toggler.calls.elements, ["Next"], "no Pause reached a paused player: \(logged.elements)")
        XCTAssertEqual(toggler.status, "Paused", "a toggling player is not started by a Pause")

        for member in ["Play", "Previous", "Stop"] {
            try await bluez.press(member, player: path, of: systemConnection.uniqueName)
        }
        _ = try await toggler.calls.wait(for: "Play, Previous, Stop forwarded", timeout: .seconds(5)) {
            $0 == ["Next", "Play", "Previous", "Stop"] ? true : nil
        }
    }

    func testOnlyBluetoothdCommandsTheRegisteredPlayer() async throws {
        try await begin()
        let mpv = try await startMPV(paused: true)
        source.set(mpv.active)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == Self.path(of: mpv) }

        let result = try await runProgram("/usr/bin/busctl",
                                          ["--address=\(system.address)", "call", systemConnection.uniqueName,
                                           Self.path(of: mpv), "org.mpris.MediaPlayer2.Player", "Play"],
                                          timeout: .seconds(10))
        XCTAssertNotEqual(result.status, 0, "another system-bus client is refused")
        XCTAssertTrue(result.stderr.contains("Access denied"), result.stderr)
        XCTAssertTrue(logged.elements.contains { $0.contains("Play from") && $0.contains("refused") }, "\(logged.elements)")
        // The refusing handler is done (a round trip on the system connection), and mpv has
        // handled whatever the headset then sent it on the session connection.
        try await systemConnection.roundTrip()
        let status = try await mpv.playbackStatus(through: directory.connection)
        XCTAssertEqual(status, "Paused")
    }

    func testTheHeadsetsRepeatAndShuffleSettingsReachTheActivePlayer() async throws {
        try await begin()
        let mpv = try await startMPV(paused: true)
        source.set(mpv.active)
        let path = Self.path(of: mpv)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == path }

        try await bluez.setSetting("LoopStatus", ["s", "Track"], player: path, of: systemConnection.uniqueName)
        let loop = try await waitForProperty("LoopStatus", of: mpv) { $0 == .string("Track") }
        XCTAssertTrue(loop, "the headset's repeat setting reaches the player: \(logged.elements)")

        try await bluez.setSetting("Shuffle", ["b", "true"], player: path, of: systemConnection.uniqueName)
        let shuffle = try await waitForProperty("Shuffle", of: mpv) { $0 == .boolean(true) }
        XCTAssertTrue(shuffle, "the headset's shuffle setting reaches the player: \(logged.elements)")

        // Anyone else on the system bus is refused, and the player keeps its setting.
        let result = try await runProgram("/usr/bin/busctl",
                                          ["--address=\(system.address)", "set-property", systemConnection.uniqueName,
                                           path, "org.mpris.MediaPlayer2.Player", "LoopStatus", "s", "None"],
                                          timeout: .seconds(10))
        XCTAssertNotEqual(result.status, 0, "another system-bus client is refused")
        XCTAssertTrue(result.stderr.contains("Access denied"), result.stderr)
        // As above: the refusal is done, and mpv has handled whatever followed it from the headset.
        try await systemConnection.roundTrip()
        try await directory.connection.roundTrip()
        let kept = try await mpv.property("LoopStatus", through: directory.connection)
        XCTAssertEqual(kept, .string("Track"))
    }

    func testTheHeadsetsSeekReachesTheActivePlayer() async throws {
        try await begin()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("headset-\(UUID().uuidString.prefix(8)).wav").path
        try WAVFile.writeCountingTone(seconds: 30, to: file)
        let mpv = try await MPVPlayer.start(bus: bus, file: file, paused: true)
        mpvs.append(mpv)
        // mpv says Paused before its file is open; a seek lands once the track's length is known.
        let loaded = try await waitForProperty("Metadata", of: mpv) { value in
            guard case .dictionary(_, _, let entries) = value else { return false }
            return entries.contains { $0.key == .string("mpris:length") }
        }
        XCTAssertTrue(loaded, "mpv opened its file")
        source.set(mpv.active)
        let path = Self.path(of: mpv)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == path }

        try await bluez.seek(by: 12_000_000, player: path, of: systemConnection.uniqueName)
        let moved = try await waitForProperty("Position", of: mpv) { value in
            if case .int64(let position) = value { return position >= 11_000_000 }
            return false
        }
        XCTAssertTrue(moved, "the headset's Seek reaches the player: \(logged.elements)")
    }

    func testRegisteredAgainWhenBluetoothdComesBack() async throws {
        try await begin()
        let mpv = try await startMPV()
        source.set(mpv.active)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == Self.path(of: mpv) }

        bluez.stop()
        bluez = try await FakeBluez.start(on: system)
        let again = try await bluez.waitForRegisteredPlayer { $0.path == Self.path(of: mpv) }
        XCTAssertEqual(again.properties["PlaybackStatus"]?.string, "Playing")

        try await bluez.press("Pause", player: Self.path(of: mpv), of: systemConnection.uniqueName)
        let paused = await mpv.waitForStatus("Paused")
        XCTAssertTrue(paused, "the new bluetoothd's commands are taken: \(logged.elements)")
    }

    func testRegisteredAgainWhenTheAdapterComesBack() async throws {
        try await begin()
        let mpv = try await startMPV()
        source.set(mpv.active)
        _ = try await bluez.waitForRegisteredPlayer { $0.path == Self.path(of: mpv) }

        try await bluez.replugAdapter()
        let path = Self.path(of: mpv)
        _ = try await bluez.waitForRegisteredPlayers(count: 2) { $0.path == path }
        let unregistered = bluez.unregisteredPlayers
        XCTAssertEqual(unregistered, [], "nothing is unregistered from an adapter that went away")
    }

    // MARK: Helpers

    private func startMPV(paused: Bool = false) async throws -> MPVPlayer {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("headset-\(UUID().uuidString.prefix(8)).wav").path
        try WAVFile.writeCountingTone(seconds: 1, to: file)
        let mpv = try await MPVPlayer.start(bus: bus, file: file, paused: paused)
        mpvs.append(mpv)
        let status = paused ? "Paused" : "Playing"
        let settled = await mpv.waitForStatus(status)
        XCTAssertTrue(settled)
        // The headset registers what the daemon's directory knows: mpv-mpris announces its status
        // up to 100 ms after it answers a Get with it.
        let directory = self.directory!
        let known = await eventually { directory.player(mpv.busName)?.properties.playbackStatus == status }
        XCTAssertTrue(known, "the directory has \(mpv.busName) \(status)")
        return mpv
    }

    /// Whether `name` of the player reaches a value `accepted` within 5 s (polled: the test's own
    /// connection hears nothing of what the headset sends mpv).
    private func waitForProperty(_ name: String, of mpv: MPVPlayer,
                                 _ accepted: (DBusValue) -> Bool) async throws -> Bool {
        try await eventually { accepted(try await mpv.property(name)) }
    }

    private func press(_ member: String, _ mpv: MPVPlayer) async throws {
        try await bluez.press(member, player: Self.path(of: mpv), of: systemConnection.uniqueName)
    }

    static func element(_ owner: String) -> String {
        String(owner.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    static func path(of mpv: MPVPlayer) -> String { "/org/mprisd/Headset/" + element(mpv.uniqueName) }
}

fileprivate extension MPVPlayer {
    var active: ActivePlayer { ActivePlayer(busName: busName, owner: uniqueName) }
}

/// The active-player source the arbiter will be, driven by hand.
private final class StubActivePlayer: Sendable {
    private let state = Mutex<(current: ActivePlayer?, handler: (@Sendable (ActivePlayer?) -> Void)?)>((nil, nil))

    func subscribe(_ handler: @escaping @Sendable (ActivePlayer?) -> Void) -> EventSubscription {
        let current = state.withLock { state in
            state.handler = handler
            return state.current
        }
        handler(current)
        return EventSubscription { [weak self] in self?.state.withLock { $0.handler = nil } }
    }

    func set(_ player: ActivePlayer?) {
        let handler = state.withLock { state in
            state.current = player
            return state.handler
        }
        handler?(player)
    }
}

extension FakeMPRISPlayer {
    /// A player that toggles on `Pause` (as tidal-hifi#800 did), named `toggler`.
    static func toggler(on connection: Connection, status: String) async throws -> FakeMPRISPlayer {
        try await start(on: connection, name: "toggler", .init(status: status, controls: .toggleOnPause))
    }

    /// The player as the arbiter names it.
    var active: ActivePlayer { ActivePlayer(busName: busName, owner: connection.uniqueName) }
}
