import AudioPolicyClient
import Foundation
import XCTest

/// The audio server's fields of the status document: added without breaking anyone (a client
/// built before them reads a new document; this client reads a document from a daemon that has
/// none of them), encoded under their documented keys, and shown as text with every name an app
/// chose escaped and cut.
final class PolicyStatusAudioServerTests: XCTestCase {
    static let sample = PolicyStatus(
        audioServer: .init(connected: true, name: "pulseaudio", version: "16.1", address: "/run/user/1000/pulse/native"),
        streams: [
            .init(direction: "playback", index: 12, application: "Firefox", binary: "firefox", pid: 4242, role: "music",
                  mediaName: "Some Song", device: "alsa_output.analog-stereo", volume: 0.3, session: "mpv (#4)",
                  action: "ducked"),
            .init(direction: "playback", index: 13, application: "paplay", role: "event", device: "alsa_output.analog-stereo",
                  corked: true, volume: 1.5, muted: true),
            .init(direction: "capture", index: 3, application: "OBS", device: "alsa_output.analog-stereo.monitor",
                  volume: 1, monitor: true),
        ],
        devices: [
            .init(kind: "sink", name: "alsa_output.analog-stereo", description: "Built-in Audio", isDefault: true,
                  ports: [.init(name: "analog-output-speaker", description: "Speakers", available: "unknown"),
                          .init(name: "analog-output-headphones", description: "Headphones", available: "no")],
                  activePort: "analog-output-speaker"),
            .init(kind: "source", name: "alsa_output.analog-stereo.monitor", description: "Monitor of Built-in Audio",
                  monitor: true),
            .init(kind: "source", name: "alsa_input.analog-stereo", description: "Built-in Mic", isDefault: true,
                  available: false, muted: true,
                  ports: [.init(name: "analog-input-mic", description: "Microphone", available: "no")],
                  activePort: "analog-input-mic"),
        ])

    // MARK: JSON

    func testRoundTripKeepsEveryNewField() throws {
        let decoded = try PolicyStatus.decode(json: Self.sample.json())
        XCTAssertEqual(decoded, Self.sample)
        XCTAssertEqual(decoded.streams?.first?.pid, 4242)
        XCTAssertEqual(decoded.devices?.first?.isDefault, true)
        let disconnected = PolicyStatus(audioServer: .init(connected: false, address: "/run/user/1000/pulse/native",
                                                           reason: "no server at /run/user/1000/pulse/native"),
                                        streams: [], devices: [])
        XCTAssertEqual(try PolicyStatus.decode(json: disconnected.json()), disconnected)
    }

    func testNewFieldsAreEncodedUnderTheirDocumentedKeys() throws {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(Self.sample.json().utf8)) as? [String: Any])
        let server = try XCTUnwrap(object["audioServer"] as? [String: Any])
        XCTAssertEqual(Set(server.keys), ["connected", "name", "version", "address"], "reason is left out when connected")
        XCTAssertEqual(server["connected"] as? Bool, true)
        let streams = try XCTUnwrap(object["streams"] as? [[String: Any]])
        XCTAssertEqual(Set(streams[0].keys), ["direction", "index", "application", "binary", "pid", "role", "mediaName",
                                              "device", "corked", "volume", "muted", "monitor", "session", "action"])
        XCTAssertEqual(streams[0]["direction"] as? String, "playback")
        XCTAssertEqual(streams[0]["volume"] as? Double, 0.3)
        XCTAssertEqual(streams[2]["monitor"] as? Bool, true)
        XCTAssertNil(streams[1]["session"], "absent values are left out")
        let devices = try XCTUnwrap(object["devices"] as? [[String: Any]])
        XCTAssertEqual(Set(devices[0].keys), ["kind", "name", "description", "default", "available", "monitor", "muted",
                                              "ports", "activePort"])
        XCTAssertEqual(devices[0]["default"] as? Bool, true)
        let ports = try XCTUnwrap(devices[0]["ports"] as? [[String: Any]])
        XCTAssertEqual(ports[1]["available"] as? String, "no")
        XCTAssertEqual(Set(ports[1].keys), ["name", "description", "available"])
    }

    /// A document of a daemon from before the audio server (the documented example, verbatim
    /// keys) reads, with the new fields absent.
    func testDocumentWithoutTheNewFieldsStillReads() throws {
        let old = """
            {"version": 1, "silentMode": false, "locked": true, "outputVolume": 0.8,
             "route": {"override": "usb-dac", "outputs": [{"id": "usb-dac", "name": "USB DAC", "type": "lineOut"}],
                       "available": [{"id": "usb-dac", "name": "USB DAC", "type": "lineOut"}]},
             "sessions": [{"id": 3, "owner": ":1.42", "name": "sleep", "category": "playAndRecord", "mode": "voiceChat",
                           "options": [], "active": true, "interrupted": false, "ducked": false}],
             "players": []}
            """
        let status = try PolicyStatus.decode(json: old)
        XCTAssertTrue(status.locked)
        XCTAssertEqual(status.sessions.first?.name, "sleep")
        XCTAssertNil(status.audioServer)
        XCTAssertNil(status.streams)
        XCTAssertNil(status.devices)
        XCTAssertFalse(status.text(colour: false).contains("Audio server"), "no audio lines from an old daemon")
        XCTAssertFalse(status.json().contains("streams"), "nothing is made up on the way through")
    }

    /// A client written against the fields from before (its own decoder, which knows none of the
    /// new keys) reads a document that has them all.
    func testClientFromBeforeReadsTheNewDocument() throws {
        var status = Self.sample
        status.silentMode = true
        status.sessions = [.init(id: 7, owner: ":1.3", name: "call", category: "playAndRecord", mode: "voiceChat",
                                 options: [], active: true, interrupted: false, ducked: false)]
        let old = try JSONDecoder().decode(StatusBeforeAudioServer.self, from: Data(status.json().utf8))
        XCTAssertEqual(old.version, 1)
        XCTAssertTrue(old.silentMode)
        XCTAssertEqual(old.sessions.map(\.name), ["call"])
    }

    /// The status document as version 1 had it before the audio server was added.
    private struct StatusBeforeAudioServer: Decodable {
        struct Port: Decodable { var id, name, type: String }
        struct Route: Decodable { var override: String?; var outputs, available: [Port] }
        struct Session: Decodable {
            var id: UInt64
            var owner, name, category, mode: String
            var options: [String]
            var active, interrupted, ducked: Bool
        }
        struct Player: Decodable {
            var busName, owner, status: String
            var session: UInt64
            var pausedByPolicy, ducked: Bool
        }
        var version: Int
        var silentMode, locked: Bool
        var outputVolume: Double?
        var route: Route
        var sessions: [Session]
        var players: [Player]
    }

    func testNonFiniteStreamVolumeStillGivesADocument() throws {
        let status = PolicyStatus(streams: [.init(direction: "playback", index: 1, volume: .infinity)])
        let decoded = try PolicyStatus.decode(json: status.json())
        XCTAssertEqual(decoded.streams?.first?.volume, 0)
        XCTAssertEqual(decoded.streams?.first?.index, 1)
    }

    // MARK: Text

    func testSampleAsText() {
        let lines = Self.sample.text(colour: false).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines[5], "Audio server  connected to pulseaudio 16.1 at /run/user/1000/pulse/native")
        XCTAssertEqual(lines[10], "Active player: none")
        XCTAssertEqual(Array(lines[12...]).joined(separator: "\n"), """
            Streams
              ID  APP      ROLE   DIRECTION          DEVICE                             VOLUME  STATE         SESSION   DAEMON
              12  Firefox  music  playback           alsa_output.analog-stereo          30%     running       mpv (#4)  ducked
              13  paplay   event  playback           alsa_output.analog-stereo          150%    corked,muted  -         -
              3   OBS      -      capture (monitor)  alsa_output.analog-stereo.monitor  100%    running       -         -

            Devices
              KIND     NAME                               DESCRIPTION                DEFAULT  AVAILABLE  PORTS
              sink     alsa_output.analog-stereo          Built-in Audio             *        yes        analog-output-speaker (active), analog-output-headphones (unplugged)
              monitor  alsa_output.analog-stereo.monitor  Monitor of Built-in Audio  -        yes        -
              source   alsa_input.analog-stereo           Built-in Mic               *        no         analog-input-mic (active, unplugged)

            """)
    }

    func testNotConnectedSaysWhyAndListsNothing() {
        let status = PolicyStatus(audioServer: .init(connected: false, address: "/run/user/1000/pulse/native",
                                                     reason: "no server at /run/user/1000/pulse/native"),
                                  streams: [], devices: [])
        let text = status.text(colour: false)
        XCTAssertTrue(text.contains("\nAudio server  not connected: no server at /run/user/1000/pulse/native\n"), text)
        XCTAssertTrue(text.hasSuffix("\nStreams  none\n\nDevices  none\n"), text)
    }

    func testColourMarksWhatTheDaemonDoesAndAnUnavailableDevice() {
        let coloured = Self.sample.text(colour: true)
        XCTAssertTrue(coloured.contains("\u{1B}[33mducked\u{1B}[0m"), "the daemon's action is yellow")
        XCTAssertTrue(coloured.contains("\u{1B}[33mcorked,muted\u{1B}[0m"), "a muted stream is yellow")
        XCTAssertTrue(coloured.contains("\u{1B}[32mconnected to"), "a connected server is green")
        let stripped = coloured.replacing(/\x{1B}\[[0-9;]*m/, with: "")
        XCTAssertEqual(stripped, Self.sample.text(colour: false), "colour never shifts columns")
    }

    /// Apps name their own streams: escape sequences, newlines, bidi overrides and endless names
    /// reach neither the terminal nor the layout.
    func testHostileAppNamesAreEscapedAndCut() throws {
        let endless = String(repeating: "A", count: 100_000)
        let status = PolicyStatus(
            audioServer: .init(connected: true, name: "pulse\u{1B}[2J", version: "1\n2", address: "/tmp/x"),
            streams: [
                .init(direction: "playback", index: 1, application: "evil\u{1B}]0;pwned\u{07}\nname", role: "mu\u{202E}sic",
                      device: "sink\r\nforged", session: "s\u{9B}31m", action: "a\u{2028}b"),
                .init(direction: "playback", index: 2, application: endless, mediaName: endless),
                .init(direction: "capture", index: 3, application: "", binary: "", mediaName: "only\u{7F}media"),
            ],
            devices: [
                .init(kind: "sink", name: "bt\u{1B}[31m", description: endless,
                      ports: [.init(name: "p\u{0}ort", available: "yes")], activePort: nil),
            ])
        let text = status.text(colour: false)
        for forbidden in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}", "\u{2028}", "\r", "\u{7F}", "\u{0}"] {
            XCTAssertFalse(text.contains(forbidden), "\(forbidden.unicodeScalars.map(\.value)) reached the terminal")
        }
        XCTAssertTrue(text.contains(#"evil\x1b]0;pwned\x07\x0aname"#), text)
        XCTAssertTrue(text.contains(#"mu\u202esic"#), text)
        XCTAssertTrue(text.contains(#"only\x7fmedia"#), "an empty name falls back to the media name: \(text)")
        XCTAssertTrue(text.contains(#"connected to pulse\x1b[2J 1\x0a2 at /tmp/x"#), text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let rows = lines.filter { $0.hasPrefix("  1 ") || $0.hasPrefix("  2 ") || $0.hasPrefix("  3 ") }
        XCTAssertEqual(rows.count, 3, "one line per stream, whatever the names: \(text)")
        let long = try XCTUnwrap(rows.first { $0.hasPrefix("  2 ") })
        XCTAssertTrue(long.contains(String(repeating: "A", count: 31) + "…"), String(long))
        XCTAssertFalse(long.contains(String(repeating: "A", count: 33)), "cut to 32 characters")
        XCTAssertLessThan(lines.map(\.count).max() ?? 0, 400, "no line grows with a name")
    }
}
