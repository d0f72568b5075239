import AudioPolicyDaemon
import AudioServer
import SessionCore
import Synchronization
import SystemContext
import XCTest

/// `ServerRouteFollower` on a real `AudioSystem` and `SystemRouting`, fed synthetic changes: what
/// the sessions hear (route change reasons, interruptions) is what makes players pause or not.
final class ServerRouteFollowerTests: XCTestCase {
    private var system = AudioSystem(conditions: SystemConditions(isOutputVolumeKnown: false))
    private lazy var routing = SystemRouting(system: system) { _ in }
    private lazy var follower = ServerRouteFollower(routing: routing, jacks: .none, followsBluetooth: false) { _ in }
    /// The daemon's follower when a stream policy decides device loss per stream.
    private lazy var perStream = ServerRouteFollower(routing: routing, jacks: .none, followsBluetooth: false,
                                                     lossPerStream: true) { _ in }

    func testASinkGoingAwayUnderAPlayingSessionIsOldDeviceUnavailable() throws {
        var server = ServerInventories()
        server.addSink("null-sink")
        follower.follow(server.connected())
        let music = try Listener(system, .playback)
        follower.follow(server.change { $0.addSink("usb-dac") })
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:usb-dac"], "last connected wins")

        follower.follow(server.change { $0.remove(.sink, named: "usb-dac") })
        XCTAssertEqual(music.routeReasons(), [.newDeviceAvailable, .oldDeviceUnavailable])
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:null-sink"])
    }

    func testWithoutAPickTheRouteStartsOnTheDefaultSink() throws {
        var server = ServerInventories()
        server.addSink("hdmi-tv")
        server.addSink("null-sink")
        server.addSink("z-line-out")
        server.inventory.defaultSink = "null-sink"
        follower.follow(server.connected())
        let music = try Listener(system, .playback)
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:null-sink"])
        XCTAssertNil(system.conditions.routeOverride, "the default found at connection is not a pick")
    }

    func testASpeakerDefaultUnderAnHDMISinkBecomesThePickAtConnection() throws {
        var server = ServerInventories()
        server.addSink("analog", properties: ["device.form_factor": "internal"])
        server.addSink("hdmi", properties: ["device.profile.name": "hdmi-stereo"])
        server.inventory.defaultSink = "analog"
        follower.follow(server.connected())
        XCTAssertEqual(system.conditions.routeOverride, "pulse-sink:analog", "automatic routing would take the HDMI sink")
        let music = try Listener(system, .playback)
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:analog"])

        follower.follow(server.change { $0.remove(.sink, named: "hdmi") })
        XCTAssertFalse(music.routeReasons().contains(.oldDeviceUnavailable), "the monitor nobody played on went away")
    }

    func testAnExistingPickIsKeptAtConnection() throws {
        routing.routePicked("speaker")  // persisted `mprisd route use speaker`
        var server = ServerInventories()
        server.addSink("analog", properties: ["device.form_factor": "internal"])
        server.addSink("hdmi", properties: ["device.profile.name": "hdmi-stereo"])
        server.inventory.defaultSink = "analog"
        follower.follow(server.connected())
        XCTAssertEqual(system.conditions.routeOverride, "speaker")
    }

    func testADefaultSinkChangeMovesSessionsWithoutAPause() throws {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("usb-dac")
        server.inventory.defaultSink = "usb-dac"
        follower.follow(server.connected())
        let music = try Listener(system, .playback)
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:usb-dac"])

        follower.follow(server.change { $0.inventory.defaultSink = "null-sink" })
        XCTAssertEqual(music.routeReasons(), [.override])
        XCTAssertEqual(system.conditions.routeOverride, "pulse-sink:null-sink")
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:null-sink"])
    }

    func testRemovalsComeBeforeTheNewDefault() throws {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("hdmi")
        follower.follow(server.connected())
        follower.follow(server.change { $0.addSink("usb-dac", properties: ["device.bus": "usb"]) })
        let music = try Listener(system, .playback)
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:usb-dac"], "the device plugged in last")

        // The session plays on usb-dac; one change takes it away and picks hdmi. The pause comes
        // from the removal, the pick moves the route after it.
        follower.follow(server.change {
            $0.remove(.sink, named: "usb-dac")
            $0.inventory.defaultSink = "hdmi"
        })
        XCTAssertEqual(music.routeReasons(), [.oldDeviceUnavailable, .override])
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:hdmi"])
    }

    func testThePickedSinkGoingAwayPausesAndThePickReturnsWithIt() throws {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("usb-dac")
        server.addSink("hdmi")
        follower.follow(server.connected())
        follower.follow(server.change { $0.inventory.defaultSink = "usb-dac" })
        let music = try Listener(system, .playback)

        follower.follow(server.change { $0.remove(.sink, named: "usb-dac") })
        follower.follow(server.change { $0.inventory.defaultSink = "null-sink" })  // the server's fallback
        XCTAssertEqual(music.routeReasons(), [.oldDeviceUnavailable])
        XCTAssertNil(system.conditions.routeOverride)

        follower.follow(server.change { $0.addSink("usb-dac") })
        XCTAssertEqual(system.conditions.routeOverride, "pulse-sink:usb-dac", "the user's pick applies again")
        XCTAssertFalse(music.routeReasons().contains(.oldDeviceUnavailable, after: 1))
    }

    func testTheLatestPickWinsBetweenMprisdRouteUseAndTheDefaultSink() throws {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("usb-dac")
        follower.follow(server.connected())

        routing.routePicked("speaker")  // `mprisd route use speaker`
        XCTAssertEqual(system.conditions.routeOverride, "speaker")
        follower.follow(server.change { $0.inventory.defaultSink = "usb-dac" })
        XCTAssertEqual(system.conditions.routeOverride, "pulse-sink:usb-dac")
        routing.routePicked("pulse-sink:null-sink")
        XCTAssertEqual(system.conditions.routeOverride, "pulse-sink:null-sink")
        follower.follow(server.change { $0.edit(.sink, named: "usb-dac") { $0.description = "USB DAC" } })
        XCTAssertEqual(system.conditions.routeOverride, "pulse-sink:null-sink", "a change of another kind is no pick")
    }

    func testTheMicMuteKeyInterruptsRecordingAndUnmutingDoesNotResume() throws {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSource("mic")
        server.inventory.defaultSource = "mic"
        follower.follow(server.connected())
        let recorder = try Listener(system, .record)

        follower.follow(server.change { $0.edit(.source, named: "mic") { $0.isMuted = true } })
        XCTAssertEqual(recorder.interruptions(), [.began(reason: .builtInMicMuted)])
        XCTAssertTrue(recorder.session.isInterrupted)
        follower.follow(server.change { $0.edit(.source, named: "mic") { $0.isMuted = false } })
        XCTAssertEqual(recorder.interruptions(), [.began(reason: .builtInMicMuted), .ended(options: [])],
                       "G-INT-MIC: ended without shouldResume")
    }

    func testAServerRestartPausesNothingThatComesBack() throws {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("usb-dac")
        server.addSource("mic", muted: true)
        server.inventory.defaultSource = "mic"
        follower.follow(server.connected())
        let music = try Listener(system, .playback)

        follower.follow(server.disconnected())
        XCTAssertFalse(system.conditions.isBuiltInMicMuted, "no server: the mic counts as unmuted")
        var restarted = ServerInventories()
        restarted.addSink("usb-dac")
        restarted.addSink("null-sink")
        restarted.inventory.defaultSink = "null-sink"
        follower.follow(restarted.connected())
        XCTAssertEqual(music.routeReasons(), [], "the same sinks came back: no route changed")
        XCTAssertEqual(follower.ports.map(\.id), ["pulse-sink:null-sink", "pulse-sink:usb-dac"])
    }

    // MARK: Device loss decided per stream (the daemon with a stream policy)

    func testPerStreamTheRouteIsTheServersDefaultNeverTheNewestSink() throws {
        let follower = perStream
        var server = ServerInventories()
        server.addSink("speakers", properties: ["device.form_factor": "internal"])
        follower.follow(server.connected())
        let music = try Listener(system, .playback)
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:speakers"])

        follower.follow(server.change { $0.addSink("hdmi", properties: ["device.profile.name": "hdmi-stereo"]) })
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:speakers"], "new streams still go to the default")
        let lost = follower.follow(server.change { $0.remove(.sink, named: "hdmi") })
        XCTAssertEqual(lost.map(\.id), ["pulse-sink:hdmi"], "the sink that went, for the stream policy")
        XCTAssertEqual(music.routeReasons(), [], "nobody's route was the HDMI sink")
    }

    func testPerStreamTheEnginesRoutePausesNobody() throws {
        let follower = perStream
        var server = ServerInventories()
        server.addSink("speakers")
        server.addSink("usb-dac")
        server.inventory.defaultSink = "usb-dac"
        follower.follow(server.connected())
        let music = try Listener(system, .playback)
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:usb-dac"])

        // The default sink goes; the server falls back to the speakers in a later event.
        follower.follow(server.change { $0.remove(.sink, named: "usb-dac") })
        follower.follow(server.change { $0.inventory.defaultSink = "speakers" })
        XCTAssertFalse(music.routeReasons().contains(.oldDeviceUnavailable),
                       "whether it played there is the streams' to say: \(music.routeReasons())")
        XCTAssertEqual(music.session.currentRoute.outputs.map(\.id), ["pulse-sink:speakers"], "the server's fallback")
    }

    func testPerStreamAUsersPickOfAnotherSinkStillWins() throws {
        let follower = perStream
        var server = ServerInventories()
        server.addSink("speakers")
        server.addSink("usb-dac")
        server.inventory.defaultSink = "speakers"
        follower.follow(server.connected())
        routing.routePicked("pulse-sink:usb-dac")  // `mprisd route use pulse-sink:usb-dac`
        XCTAssertEqual(system.conditions.routeOverride, "pulse-sink:usb-dac")
        follower.follow(server.change { $0.edit(.sink, named: "speakers") { $0.description = "Speakers" } })
        XCTAssertEqual(system.conditions.routeOverride, "pulse-sink:usb-dac", "the server's default does not overrule the pick")
    }
}

/// An active session of `category` and what it heard, read after delivery.
private final class Listener: Sendable {
    let session: AudioSession
    private let heard = Heard()
    private let subscription: EventSubscription

    init(_ system: AudioSystem, _ category: SessionCategory) throws {
        session = try system.makeSession(SessionConfiguration(category))
        let heard = self.heard
        if category.hasInput { _ = session.requestRecordPermission() }
        subscription = session.onEvent { event in heard.events.withLock { $0.append(event) } }
        _ = try session.setActive(true)
        system.waitForDelivery()
        heard.events.withLock { $0 = [] }
    }

    deinit { subscription.cancel() }

    func routeReasons() -> [RouteChangeReason] {
        session.system.waitForDelivery()
        return heard.events.withLock { $0 }.compactMap { if case .routeChange(let change) = $0 { change.reason } else { nil } }
    }

    func interruptions() -> [InterruptionEvent] {
        session.system.waitForDelivery()
        return heard.events.withLock { $0 }.compactMap { if case .interruption(let event) = $0 { event } else { nil } }
    }
}

/// The events a `Listener` heard, appended on the event thread.
private final class Heard: Sendable {
    let events = Mutex<[SessionEvent]>([])
}

private extension Array where Element == RouteChangeReason {
    func contains(_ reason: RouteChangeReason, after count: Int) -> Bool { dropFirst(count).contains(reason) }
}
