import AudioPolicyClient
import AudioPolicyDaemon
import AudioServer
import XCTest

/// The daemon's conversion of the audio server's inventory into the status document: streams
/// named by their device, monitor captures marked, the defaults marked, what the daemon does taken
/// from the stream report, outside strings carried as they are but bounded.
final class AudioServerStatusTests: XCTestCase {
    private static let address = ServerAddress.socket(path: "/run/user/1000/pulse/native")

    private static let inventory = AudioInventory(
        server: ServerIdentity(name: "PulseAudio (on PipeWire 0.3.65)", version: "15.0.0", cookie: 7),
        streams: [
            StreamID(.playback, 40): AudioStream(id: StreamID(.playback, 40), applicationName: "Firefox", binary: "firefox",
                                                 processID: 4242, role: "music", mediaName: "Song",
                                                 volume: ChannelVolume(channels: [0x8000, 0x10000]), deviceIndex: 1),
            StreamID(.playback, 7): AudioStream(id: StreamID(.playback, 7), applicationName: "paplay", isCorked: true,
                                                isMuted: true, deviceIndex: 99),
            StreamID(.capture, 3): AudioStream(id: StreamID(.capture, 3), applicationName: "OBS", deviceIndex: 2),
            StreamID(.capture, 4): AudioStream(id: StreamID(.capture, 4), applicationName: "Zoom", role: "phone",
                                               deviceIndex: 3),
        ],
        devices: [
            DeviceID(.sink, 1): AudioDevice(id: DeviceID(.sink, 1), name: "alsa_output.analog", description: "Built-in",
                                            ports: [DevicePort(name: "speaker", description: "Speakers", availability: .unknown),
                                                    DevicePort(name: "headphones", description: "Headphones", availability: .no)],
                                            activePort: "headphones"),
            DeviceID(.source, 2): AudioDevice(id: DeviceID(.source, 2), name: "alsa_output.analog.monitor",
                                              description: "Monitor of Built-in", monitorOfSink: 1),
            DeviceID(.source, 3): AudioDevice(id: DeviceID(.source, 3), name: "alsa_input.analog", description: "Mic",
                                              isMuted: true),
            DeviceID(.sink, 5): AudioDevice(id: DeviceID(.sink, 5), name: "usb-dac", description: "USB DAC"),
        ],
        defaultSink: "usb-dac", defaultSource: "alsa_input.analog")

    func testInventoryBecomesTheDocumentsServerStreamsAndDevices() throws {
        var status = PolicyStatus()
        let report: AudioServerStatus.Report = [StreamID(.playback, 40): (session: "org.mpris.MediaPlayer2.firefox (#3)",
                                                                          action: "ducked")]
        AudioServerStatus.fill(&status, inventory: Self.inventory, address: Self.address, absenceReason: nil, report: report)

        XCTAssertEqual(status.audioServer, PolicyStatus.AudioServer(connected: true, name: "PulseAudio (on PipeWire 0.3.65)",
                                                                    version: "15.0.0", address: "/run/user/1000/pulse/native"))
        let streams = try XCTUnwrap(status.streams)
        XCTAssertEqual(streams.map { "\($0.direction) \($0.index)" }, ["playback 7", "playback 40", "capture 3", "capture 4"],
                       "playback first, then by index")
        let firefox = streams[1]
        XCTAssertEqual(firefox, PolicyStatus.Stream(direction: "playback", index: 40, application: "Firefox", binary: "firefox",
                                                    pid: 4242, role: "music", mediaName: "Song", device: "alsa_output.analog",
                                                    corked: false, volume: 1, muted: false, monitor: false,
                                                    session: "org.mpris.MediaPlayer2.firefox (#3)", action: "ducked"))
        XCTAssertEqual(streams[0].device, nil, "a device the inventory does not have is unknown, not made up")
        XCTAssertTrue(streams[0].corked && streams[0].muted)
        XCTAssertNil(streams[0].session)
        XCTAssertNil(streams[0].action)
        XCTAssertTrue(streams[2].monitor, "OBS records a monitor source: not a microphone")
        XCTAssertEqual(streams[2].device, "alsa_output.analog.monitor")
        XCTAssertFalse(streams[3].monitor, "Zoom records the microphone")

        let devices = try XCTUnwrap(status.devices)
        XCTAssertEqual(devices.map(\.name), ["alsa_output.analog", "usb-dac", "alsa_output.analog.monitor", "alsa_input.analog"])
        XCTAssertEqual(devices.map(\.isDefault), [false, true, false, true])
        XCTAssertEqual(devices.map(\.kind), ["sink", "sink", "source", "source"])
        XCTAssertEqual(devices.map(\.monitor), [false, false, true, false])
        XCTAssertEqual(devices[0].available, false, "its active port is unplugged")
        XCTAssertEqual(devices[0].activePort, "headphones")
        XCTAssertEqual(devices[0].ports, [PolicyStatus.DevicePort(name: "speaker", description: "Speakers", available: "unknown"),
                                          PolicyStatus.DevicePort(name: "headphones", description: "Headphones", available: "no")])
        XCTAssertTrue(devices[3].muted)
    }

    func testNotConnectedSaysWhyWithEmptyLists() {
        var status = PolicyStatus()
        AudioServerStatus.fill(&status, inventory: AudioInventory(), address: Self.address,
                               absenceReason: "no server at /run/user/1000/pulse/native", report: [:])
        XCTAssertEqual(status.audioServer, PolicyStatus.AudioServer(connected: false, address: "/run/user/1000/pulse/native",
                                                                    reason: "no server at /run/user/1000/pulse/native"))
        XCTAssertEqual(status.streams, [])
        XCTAssertEqual(status.devices, [])
    }

    /// A link that is not started has no server: the document says so, and why, rather than
    /// leaving the fields out.
    func testUnstartedLinkIsReportedAsNotConnected() throws {
        let link = AudioServerLink(address: .socket(path: "/nonexistent/pulse/native")) { _ in }
        var status = PolicyStatus()
        AudioServerStatus.fill(&status, link: link, report: [:])
        let server = try XCTUnwrap(status.audioServer)
        XCTAssertFalse(server.connected)
        XCTAssertEqual(server.address, "/nonexistent/pulse/native")
        XCTAssertEqual(server.reason, try XCTUnwrap(link.absenceReason), "the link's own reason")
        XCTAssertEqual(status.streams, [])
    }

    /// Strings apps choose are carried as they are (control characters too: JSON escapes them),
    /// but bounded, so that no app can make `GetStatus` too large for the bus.
    func testOutsideStringsAreKeptButBounded() throws {
        let huge = String(repeating: "x", count: 1_000_000)
        let combining = "e" + String(repeating: "\u{301}", count: 10_000)  // one Character, 10 001 scalars
        let id = StreamID(.playback, 1)
        let inventory = AudioInventory(
            server: ServerIdentity(name: "pulseaudio", version: "16.1", cookie: 1),
            streams: [id: AudioStream(id: id, applicationName: "tab\tand\u{1B}esc", binary: combining, role: huge,
                                      mediaName: huge)])
        var status = PolicyStatus()
        AudioServerStatus.fill(&status, inventory: inventory, address: Self.address, absenceReason: nil,
                               report: [id: (session: huge, action: nil)])
        let stream = try XCTUnwrap(status.streams?.first)
        XCTAssertEqual(stream.application, "tab\tand\u{1B}esc", "data stays data")
        for value in [stream.binary, stream.role, stream.mediaName, stream.session] {
            let scalars = try XCTUnwrap(value).unicodeScalars
            XCTAssertEqual(scalars.count, AudioServerStatus.maxTextLength)
            XCTAssertEqual(scalars.last, "…")
        }
        XCTAssertLessThan(status.json().utf8.count, 4 * 1024, "the document stays small")
        XCTAssertEqual(try PolicyStatus.decode(json: status.json()).streams?.first?.application, "tab\tand\u{1B}esc")
    }
}
