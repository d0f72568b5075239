@testable import AudioPolicyDaemon
import AudioServer
import Foundation
import SessionCore
import Synchronization
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Device loss per stream through the stream policy, driven with the server's changes as values
/// on a real engine: a sink going away tells only the sessions whose own streams played there
/// (`oldDeviceUnavailable`), including across a server restart, and never the others.
final class StreamDeviceLossTests: XCTestCase {
    private let system = AudioSystem(conditions: SystemConditions(isOutputVolumeKnown: false))
    private var policy: StreamPolicy?

    override func tearDown() {
        policy?.stop(patience: .milliseconds(10))
        policy = nil
    }

    func testOnlyTheSessionThatPlayedOnTheSinkLosesItsDevice() throws {
        let (policy, onDAC, onSpeakers) = try start()
        var server = ServerInventories()
        server.addSink("speakers")
        let dac = server.addSink("usb-dac")
        server.inventory.defaultSink = "speakers"
        server.play(StreamID(.playback, 1), process: getpid(), on: dac)
        server.play(StreamID(.playback, 2), process: getppid(), on: server.inventory.device(.sink, named: "speakers")!.id)
        policy.inventoryChanged(server.connected())
        try waitUntil("both are audible") { policy.audibleSinks()?.count == 2 }
        XCTAssertEqual(policy.audibleSinks()?[1], ["usb-dac"])
        XCTAssertEqual(policy.audibleSinks()?[2], ["speakers"])

        let change = server.change { $0.remove(.sink, named: "usb-dac") }
        policy.inventoryChanged(change, lost: [port("usb-dac")])
        policy.thread.enqueueAndWait {}
        XCTAssertEqual(onDAC.lost(), [["USB DAC"]])
        XCTAssertEqual(onSpeakers.lost(), [], "it never played there")
    }

    func testASinkNobodyPlayedOnPausesNobody() throws {
        let (policy, onDAC, onSpeakers) = try start()
        var server = ServerInventories()
        let speakers = server.addSink("speakers")
        server.addSink("hdmi")
        server.play(StreamID(.playback, 1), process: getpid(), on: speakers)
        server.play(StreamID(.playback, 2), process: getppid(), on: speakers)
        policy.inventoryChanged(server.connected())
        policy.inventoryChanged(server.change { $0.remove(.sink, named: "hdmi") }, lost: [port("hdmi")])
        policy.thread.enqueueAndWait {}
        XCTAssertEqual(onDAC.lost() + onSpeakers.lost(), [])
    }

    func testAPlayerOnASinkThatDoesNotComeBackAfterARestartLosesIt() throws {
        let (policy, onDAC, onSpeakers) = try start()
        var server = ServerInventories()
        let speakers = server.addSink("speakers")
        let dac = server.addSink("usb-dac")
        server.inventory.defaultSink = "speakers"
        server.play(StreamID(.playback, 1), process: getpid(), on: dac)
        server.play(StreamID(.playback, 2), process: getppid(), on: speakers)
        policy.inventoryChanged(server.connected())
        policy.inventoryChanged(server.disconnected())
        // The server is back with its own sink only; the streams died with it.
        var restarted = ServerInventories()
        restarted.addSink("speakers")
        policy.inventoryChanged(restarted.connected(), lost: [port("usb-dac")])
        policy.thread.enqueueAndWait {}
        XCTAssertEqual(onDAC.lost(), [["USB DAC"]])
        XCTAssertEqual(onSpeakers.lost(), [])
    }

    func testStreamsOnTwoSinksKeepTheirDeviceWhenTheyLandWhereTheyPlayed() throws {
        let both = try twoSinks(["usb-dac", "speakers"], default: "speakers")
        XCTAssertEqual(both.lost(), [], "its moved stream lands on the speakers, where it already played")
    }

    func testStreamsOnTwoSinksLoseTheDeviceWhenTheyLandSomewhereNew() throws {
        let both = try twoSinks(["usb-dac", "hdmi"], default: "speakers")
        XCTAssertEqual(both.lost(), [["USB DAC"]], "its stream of usb-dac lands on the speakers: somewhere new")
    }

    /// Session 1 plays on both `sinks` (the first is usb-dac), which then goes away, the server's
    /// default being `defaultSink`.
    private func twoSinks(_ sinks: [String], default defaultSink: String) throws -> Lost {
        let (policy, first, _) = try start()
        var server = ServerInventories()
        server.addSink("speakers")
        for (index, name) in sinks.enumerated() {
            let sink = server.inventory.device(.sink, named: name)?.id ?? server.addSink(name)
            server.play(StreamID(.playback, UInt32(index + 1)), process: getpid(), on: sink)
        }
        server.inventory.defaultSink = defaultSink
        policy.inventoryChanged(server.connected())
        try waitUntil("it is audible on both") { policy.audibleSinks()?[1]?.count == 2 }
        policy.inventoryChanged(server.change { $0.remove(.sink, named: "usb-dac") }, lost: [port("usb-dac")])
        policy.thread.enqueueAndWait {}
        return first
    }

    // MARK: Helpers

    /// A session no stream places keeps the jack behind its route's sink: it loses its device
    /// when that sink is behind the lost port, not when another is, not when its route is no
    /// server sink, and not once a stream has placed it (that stream decides alone).
    func testAnUnplacedSessionLosesTheJackBehindItsRoutesSink() {
        let jack = AudioPort(id: "hw:0:Headphone Jack", name: "Headphone", type: .headphones)
        let behind = ["laptop": jack]
        let onLaptop = AudioRoute(outputs: [port("laptop")])
        let unplaced: [SessionID: AudioRoute] = [
            SessionID(rawValue: 3): onLaptop,
            SessionID(rawValue: 1): onLaptop,
            SessionID(rawValue: 2): AudioRoute(outputs: [port("usb-dac")]),
            SessionID(rawValue: 4): AudioRoute(outputs: [AudioPort(id: "builtin-speaker", name: "Speaker", type: .speaker)]),
            SessionID(rawValue: 5): onLaptop,
        ]
        let losses = StreamPolicy.routeLosses(unplaced, behind: behind, placed: [SessionID(rawValue: 5)])
        XCTAssertEqual(losses.map(\.0), [SessionID(rawValue: 1), SessionID(rawValue: 3)], "in the order of their ids")
        XCTAssertEqual(losses.map(\.1), [jack, jack])
        XCTAssertEqual(losses.map(\.2), ["laptop", "laptop"])
        XCTAssertTrue(StreamPolicy.routeLosses(unplaced, behind: [:], placed: []).isEmpty, "no sink behind the port")
    }

    private func port(_ sink: String) -> AudioPort {
        AudioPort(id: "pulse-sink:\(sink)", name: sink == "usb-dac" ? "USB DAC" : sink, type: .lineOut)
    }

    /// A policy with two sessions that claim their streams: number 1 owned by this process,
    /// number 2 by its parent.
    private func start() throws -> (StreamPolicy, Lost, Lost) {
        let link = AudioServerLink(address: .unknown(reason: "a test"), log: { _ in })
        let policy = try StreamPolicy(link: link, connection: nil, journal: nil, log: { _ in })
        self.policy = policy
        let first = try Lost(system)
        let second = try Lost(system)
        policy.manage(first.session, number: 1, label: "first", owner: ":1.1", pid: getpid(),
                      ducksStreams: false, mutesOnInterruption: false)
        policy.manage(second.session, number: 2, label: "second", owner: ":1.2", pid: getppid(),
                      ducksStreams: false, mutesOnInterruption: false)
        return (policy, first, second)
    }

    private func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { return XCTFail("never: \(what)") }
            policy?.thread.enqueueAndWait {}
        }
    }
}

private extension ServerInventories {
    /// A playback stream of process `pid` on `sink`.
    mutating func play(_ id: StreamID, process pid: Int32, on sink: DeviceID) {
        inventory.streams[id] = AudioStream(id: id, applicationName: "player", processID: pid, deviceIndex: sink.index)
    }
}

/// A playback session and the outputs it heard it lost (`oldDeviceUnavailable`).
private final class Lost: Sendable {
    let session: AudioSession
    private let heard = Outputs()
    private let subscription: EventSubscription

    /// The outputs heard lost, appended on the event thread.
    private final class Outputs: Sendable {
        let lost = Mutex<[[String]]>([])
    }

    init(_ system: AudioSystem) throws {
        session = try system.makeSession(SessionConfiguration(.playback, options: [.mixWithOthers]))
        let heard = self.heard
        subscription = session.onEvent { event in
            guard case .routeChange(let change) = event, change.reason == .oldDeviceUnavailable else { return }
            heard.lost.withLock { $0.append(change.previousRoute.outputs.map(\.name)) }
        }
    }

    deinit { subscription.cancel() }

    func lost() -> [[String]] {
        session.system.waitForDelivery()
        return heard.lost.withLock { $0 }
    }
}
