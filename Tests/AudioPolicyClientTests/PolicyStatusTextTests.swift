import AudioPolicyClient
import XCTest

/// `mprisd status` as text and as JSON: exact layout for a sample daemon state, colour only when
/// asked, control characters from other programs never reaching the terminal, and the JSON
/// document reading back to the same status.
final class PolicyStatusTextTests: XCTestCase {
    private static let sample = PolicyStatus(
        silentMode: true, locked: false, outputVolume: 0.8,
        route: .init(override: "usb-dac",
                     outputs: [.init(id: "usb-dac", name: "USB DAC", type: "lineOut")],
                     available: [.init(id: "speaker", name: "Speaker", type: "speaker"),
                                 .init(id: "usb-dac", name: "USB DAC", type: "lineOut")]),
        sessions: [
            .init(id: 3, owner: ":1.42", name: "sleep", category: "playAndRecord", mode: "voiceChat",
                  options: [], active: true, interrupted: false, ducked: false),
            .init(id: 12, owner: ":1.107", name: "Music", category: "playback", mode: "default",
                  options: ["mixWithOthers"], active: false, interrupted: true, ducked: false),
            .init(id: 4, owner: ":1.7", name: "org.mpris.MediaPlayer2.mpv", category: "playback", mode: "default",
                  options: [], active: true, interrupted: false, ducked: true),
            .init(id: 5, owner: ":1.9", name: "beep", category: "ambient", mode: "default",
                  options: [], active: false, interrupted: false, ducked: false),
        ],
        players: [
            .init(busName: "org.mpris.MediaPlayer2.mpv", owner: ":1.7", status: "Paused", session: 4,
                  pausedByPolicy: true, ducked: true),
            .init(busName: "org.mpris.MediaPlayer2.vlc", owner: ":1.8", status: "Playing", session: 6,
                  pausedByPolicy: false, ducked: false),
        ])

    func testSampleAsPlainText() {
        XCTAssertEqual(Self.sample.text(colour: false), """
            Silent mode  on
            Lock         unlocked
            Volume       80%
            Route        USB DAC (lineOut) [override]
            Available    Speaker (speaker), USB DAC (lineOut) [override]

            Sessions
              ID  OWNER   NAME                        CATEGORY       MODE       STATE
              3   :1.42   sleep                       playAndRecord  voiceChat  active
              12  :1.107  Music                       playback       default    interrupted
              4   :1.7    org.mpris.MediaPlayer2.mpv  playback       default    ducked
              5   :1.9    beep                        ambient        default    inactive

            Players
              BUS NAME                    STATUS   FLAGS
              org.mpris.MediaPlayer2.mpv  Paused   paused-by-policy,ducked
              org.mpris.MediaPlayer2.vlc  Playing  -
            Active player: none

            """)
    }

    func testEmptyStatusSaysNone() {
        XCTAssertEqual(PolicyStatus().text(colour: false), """
            Silent mode  off
            Lock         unlocked
            Volume       unknown
            Route        none [automatic]
            Available    none

            Sessions  none

            Players  none
            Active player: none

            """)
    }

    func testTheActivePlayerIsOneLineAfterThePlayersAndReadsBack() throws {
        var status = Self.sample
        status.activePlayer = .init(busName: "org.mpris.MediaPlayer2.vlc", owner: ":1.8", status: "Playing",
                                    reason: "playing since 14:02:11", since: 1_764_597_731.5)
        let lines = status.text(colour: false).split(separator: "\n", omittingEmptySubsequences: false)
        let players = try XCTUnwrap(lines.firstIndex(of: "Players"))
        XCTAssertEqual(lines[players + 4], "Active player: org.mpris.MediaPlayer2.vlc (playing since 14:02:11)")
        XCTAssertTrue(status.text(colour: true).contains("Active player: \u{1B}[32morg.mpris.MediaPlayer2.vlc\u{1B}[0m"),
                      "a playing active player is green")
        XCTAssertEqual(try PolicyStatus.decode(json: status.json()), status)
        XCTAssertTrue(status.json().contains("\"activePlayer\""), status.json())
        // A document without the field (an older daemon, or no player) reads as none.
        XCTAssertNil(try PolicyStatus.decode(json: Self.sample.json()).activePlayer)
        XCTAssertFalse(Self.sample.json().contains("activePlayer"))
    }

    func testOverrideThatIsNotAvailableIsShown() {
        var status = PolicyStatus(locked: true, outputVolume: 0)
        status.route = .init(override: "bt-headset", outputs: [.init(id: "speaker", name: "Speaker", type: "speaker")],
                             available: [.init(id: "speaker", name: "Speaker", type: "speaker")])
        let lines = status.text(colour: false).split(separator: "\n")
        XCTAssertEqual(lines[1], "Lock         locked")
        XCTAssertEqual(lines[2], "Volume       0%")
        XCTAssertEqual(lines[3], "Route        Speaker (speaker) [override bt-headset not available]")
    }

    func testNoEscapeCodesWithoutColourAndSomeWithIt() {
        let plain = Self.sample.text(colour: false)
        XCTAssertFalse(plain.contains("\u{1B}"), "no colour was asked for")

        let coloured = Self.sample.text(colour: true)
        XCTAssertTrue(coloured.contains("\u{1B}[32mactive\u{1B}[0m"), "active is green")
        XCTAssertTrue(coloured.contains("\u{1B}[33minterrupted\u{1B}[0m"), "interrupted is yellow")
        XCTAssertTrue(coloured.contains("\u{1B}[33mducked\u{1B}[0m"), "ducked is yellow")
        XCTAssertTrue(coloured.contains("\u{1B}[32mPlaying\u{1B}[0m"), "Playing is green")
        XCTAssertTrue(coloured.contains("\u{1B}[33mon\u{1B}[0m"), "silent mode on is yellow")
        // Without the escapes, the coloured text is the plain one: colour never shifts columns.
        let stripped = coloured.replacing(/\x{1B}\[[0-9;]*m/, with: "")
        XCTAssertEqual(stripped, plain)
    }

    func testControlCharactersFromOtherProgramsNeverReachTheTerminal() {
        let status = PolicyStatus(sessions: [
            .init(id: 1, owner: ":1.5", name: "evil\u{1B}]0;pwned\u{07}\nname", category: "playback",
                  mode: "default", options: [], active: true, interrupted: false, ducked: false),
        ])
        let text = status.text(colour: false)
        XCTAssertFalse(text.contains("\u{1B}"))
        XCTAssertFalse(text.contains("\u{07}"))
        XCTAssertTrue(text.contains(#"evil\x1b]0;pwned\x07\x0aname"#), text)
    }

    func testSpokenAudioPlayersAreFlaggedAndTheirModeReadsBack() throws {
        let status = PolicyStatus(players: [
            .init(busName: "org.mpris.MediaPlayer2.mpv", owner: ":1.7", status: "Playing", session: 4,
                  pausedByPolicy: false, ducked: false, mode: "spokenAudio", modeReason: "genre 'Podcast'"),
            .init(busName: "org.mpris.MediaPlayer2.vlc", owner: ":1.8", status: "Paused", session: 6,
                  pausedByPolicy: true, ducked: false, mode: "spokenAudio", modeReason: "rule line 2"),
            .init(busName: "org.mpris.MediaPlayer2.xmms", owner: ":1.9", status: "Playing", session: 7,
                  pausedByPolicy: false, ducked: false, mode: "default"),
        ])
        let text = status.text(colour: false)
        XCTAssertTrue(text.contains("org.mpris.MediaPlayer2.mpv   Playing  spoken-audio\n"), text)
        XCTAssertTrue(text.contains("org.mpris.MediaPlayer2.vlc   Paused   spoken-audio,paused-by-policy\n"), text)
        XCTAssertTrue(text.contains("org.mpris.MediaPlayer2.xmms  Playing  -\n"), text)
        let coloured = status.text(colour: true)
        XCTAssertFalse(coloured.contains("\u{1B}[33mspoken-audio\u{1B}[0m"), "spoken audio alone is held back by nothing")
        XCTAssertTrue(coloured.contains("\u{1B}[33mspoken-audio,paused-by-policy\u{1B}[0m"))

        XCTAssertEqual(try PolicyStatus.decode(json: status.json()), status)
        let older = #"{"version": 1, "silentMode": false, "locked": false, "route": {"outputs": [], "available": []}, "sessions": [], "players": [{"busName": "org.mpris.MediaPlayer2.mpv", "owner": ":1.7", "status": "Paused", "session": 4, "pausedByPolicy": true, "ducked": false}]}"#
        let read = try PolicyStatus.decode(json: older)
        XCTAssertNil(read.players.first?.mode, "a daemon from before issue 15 has no mode")
        XCTAssertNil(read.players.first?.modeReason)
    }


    /// Each player's streams from the daemon's join: their sink and volume (amplified above
    /// 100 %), or `muted`; a player with none shows `-`; the document reads back.
    func testAPlayersStreamsShowTheirSinkAndVolume() throws {
        var mpv = PolicyStatus.Player(busName: "org.mpris.MediaPlayer2.mpv", owner: ":1.7", status: "Playing",
                                      session: 4, pausedByPolicy: false, ducked: true)
        mpv.audibleOn = ["hdmi", "usb-dac"]
        mpv.streams = [.init(index: 7, sink: "usb-dac", volume: 0.249, muted: false),
                       .init(index: 9, sink: "hdmi", volume: 1.5, muted: true)]
        var firefox = PolicyStatus.Player(busName: "org.mpris.MediaPlayer2.firefox.instance_1_2", owner: ":1.8",
                                          status: "Paused", session: 6, pausedByPolicy: false, ducked: false)
        firefox.audibleOn = []
        firefox.streams = []
        let status = PolicyStatus(players: [mpv, firefox])
        let text = status.text(colour: false)
        XCTAssertTrue(text.contains("BUS NAME                                     STATUS   FLAGS   AUDIBLE ON\n"), text)
        XCTAssertTrue(text.contains("org.mpris.MediaPlayer2.mpv                   Playing  ducked  usb-dac 25%,hdmi muted\n"), text)
        XCTAssertTrue(text.contains("org.mpris.MediaPlayer2.firefox.instance_1_2  Paused   -       -\n"), text)
        XCTAssertEqual(try PolicyStatus.decode(json: status.json()), status)
    }
    // MARK: JSON

    func testJSONRoundTrip() throws {
        let json = Self.sample.json()
        XCTAssertEqual(try PolicyStatus.decode(json: json), Self.sample)
        let empty = PolicyStatus()
        XCTAssertEqual(try PolicyStatus.decode(json: empty.json()), empty)
    }

    func testJSONIsSortedIndentedAndLeavesUnknownsOut() throws {
        let json = PolicyStatus(route: .init(outputs: [.init(id: "hw/0", name: "Speaker", type: "speaker")])).json()
        XCTAssertEqual(json, """
            {
              "locked" : false,
              "players" : [

              ],
              "route" : {
                "available" : [

                ],
                "outputs" : [
                  {
                    "id" : "hw/0",
                    "name" : "Speaker",
                    "type" : "speaker"
                  }
                ]
              },
              "sessions" : [

              ],
              "silentMode" : false,
              "version" : 1
            }
            """)
    }

    func testNonFiniteVolumeStillGivesADocument() throws {
        let json = PolicyStatus(outputVolume: .nan).json()
        XCTAssertNil(try PolicyStatus.decode(json: json).outputVolume)
    }

    func testMalformedJSONThrows() {
        XCTAssertThrowsError(try PolicyStatus.decode(json: "{\"version\": 1}"))
        XCTAssertThrowsError(try PolicyStatus.decode(json: "not json"))
    }
}
