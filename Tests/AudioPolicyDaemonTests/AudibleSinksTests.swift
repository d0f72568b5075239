@testable import AudioPolicyDaemon
import AudioServer
import XCTest

/// The per-stream rule of device loss (`AudibleSinks`), as a table: who loses their device when
/// sinks go away, given where each session is audible and where the server sends the streams.
final class AudibleSinksTests: XCTestCase {
    private struct Case {
        var name: String
        var audible: [UInt64: Set<String>]
        var lost: Set<String>
        var destination: String?
        var losses: [UInt64: [String]]
    }

    func testWhoLosesTheirDevice() {
        let cases = [
            Case(name: "a sink nobody plays on", audible: [1: ["speakers"]], lost: ["hdmi"], destination: "speakers",
                 losses: [:]),
            Case(name: "the one sink a session plays on", audible: [1: ["usb-dac"], 2: ["speakers"]], lost: ["usb-dac"],
                 destination: "speakers", losses: [1: ["usb-dac"]]),
            Case(name: "two sinks, the streams land on the other", audible: [1: ["usb-dac", "speakers"]], lost: ["usb-dac"],
                 destination: "speakers", losses: [:]),
            Case(name: "two sinks, the streams land on a third", audible: [1: ["usb-dac", "hdmi"]], lost: ["usb-dac"],
                 destination: "speakers", losses: [1: ["usb-dac"]]),
            Case(name: "two sinks, the default is the lost one (unknown landing)", audible: [1: ["usb-dac", "speakers"]],
                 lost: ["usb-dac"], destination: "usb-dac", losses: [1: ["usb-dac"]]),
            Case(name: "two sinks, no default known", audible: [1: ["usb-dac", "speakers"]], lost: ["usb-dac"],
                 destination: nil, losses: [1: ["usb-dac"]]),
            Case(name: "both of its sinks go", audible: [1: ["usb-dac", "speakers"]], lost: ["usb-dac", "speakers"],
                 destination: "hdmi", losses: [1: ["speakers", "usb-dac"]]),
            Case(name: "nothing lost", audible: [1: ["usb-dac"]], lost: [], destination: nil, losses: [:]),
            Case(name: "a session audible nowhere", audible: [1: []], lost: ["usb-dac"], destination: "speakers", losses: [:]),
        ]
        for test in cases {
            let audible = AudibleSinks(bySession: test.audible)
            XCTAssertEqual(audible.losses(of: test.lost, destination: test.destination), test.losses, test.name)
        }
    }

    func testAudibleFromThePairedPlaybackStreamsOnSinksThatExist() {
        var server = ServerInventories()
        let speakers = server.addSink("speakers")
        let dac = server.addSink("usb-dac")
        let mic = server.addSource("mic")
        func stream(_ direction: StreamDirection, _ index: UInt32, on device: DeviceID) -> AudioStream {
            AudioStream(id: StreamID(direction, index), deviceIndex: device.index)
        }
        for stream in [stream(.playback, 1, on: speakers), stream(.playback, 2, on: dac), stream(.capture, 3, on: mic),
                       stream(.playback, 4, on: DeviceID(.sink, 99)), stream(.playback, 5, on: dac)] {
            server.inventory.streams[stream.id] = stream
        }
        var audible = AudibleSinks()
        audible.update(pairs: [StreamID(.playback, 1): 1, StreamID(.playback, 2): 1, StreamID(.capture, 3): 2,
                               StreamID(.playback, 4): 3],
                       in: server.inventory)
        XCTAssertEqual(audible.sinks(of: 1), ["speakers", "usb-dac"])
        XCTAssertEqual(audible.sinks(of: 2), [], "a capture stream makes nobody audible")
        XCTAssertEqual(audible.sinks(of: 3), [], "a stream on a sink that is gone counts nowhere")
        XCTAssertNil(audible.bySession[4], "an unpaired stream is nobody's")
    }
}
