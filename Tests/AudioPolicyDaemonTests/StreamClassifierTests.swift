@testable import AppClassification
@testable import AudioPolicyDaemon
import AudioServer
import SessionCore
import XCTest

/// The order rules, role, name table, default; call captures; the monitor exclusion; the text
/// `mprisd status` shows.
final class StreamClassifierTests: XCTestCase {
    private func stream(_ direction: StreamDirection = .playback, name: String? = nil, binary: String? = nil,
                        flatpak: String? = nil, role: String? = nil) -> AudioStream {
        AudioStream(id: StreamID(direction, 7), applicationName: name, binary: binary, flatpakID: flatpak, role: role)
    }

    private func classifier(_ rules: String) -> StreamClassifier {
        let parsed = AppRules(parsing: rules, path: "/apps")
        XCTAssertEqual(parsed.problems, [])
        return StreamClassifier(rules: parsed)
    }

    func testAnUnknownAppIsPlaybackThatMixes() {
        for direction in [StreamDirection.playback, .capture] {
            let found = StreamClassifier().classify(stream(direction, name: "paplay"))
            XCTAssertEqual(found.appClass, .mixing)
            XCTAssertEqual(found.reason, .default)
            XCTAssertEqual(found.configuration, SessionConfiguration(.playback, options: [.mixWithOthers]))
            XCTAssertEqual(found.configuration?.traits.isMixable, true)
            XCTAssertFalse(found.isCallCapture)
            XCTAssertFalse(found.isProtected)
            XCTAssertEqual(found.description, "mixing (default)")
        }
        // A stream with nothing at all, and one with a role not understood.
        XCTAssertEqual(StreamClassifier().classify(stream()).reason, .default)
        XCTAssertEqual(StreamClassifier().classify(stream(name: "x", role: "Camera")).reason, .default)
    }

    func testRoleGivesTheClassAndIsReportedAsSet() {
        let found = StreamClassifier().classify(stream(.capture, name: "Twinkle", role: "Communication"))
        XCTAssertEqual(found.appClass, .call)
        XCTAssertEqual(found.reason, .role("Communication"))
        XCTAssertTrue(found.isCallCapture)
        XCTAssertEqual(found.description, "call (role: Communication)")
        let movie = StreamClassifier().classify(stream(name: "pw-play", role: "Movie"))
        XCTAssertEqual(movie.configuration, SessionConfiguration(.playback, mode: .moviePlayback))
        XCTAssertEqual(movie.description, "media (role: Movie)")
    }

    /// Issue 24: pipewire-pulse gives a pulse client's `animation` back as `video`: such a stream
    /// is media held until sure (`isAmbiguousRole`); a native client's or PulseAudio's is not, and
    /// a rule settles it.
    func testAVideoThroughPipeWirePulseIsHeldAsMaybeAnAnimation() {
        var clip = stream(name: "clip", role: "video")
        XCTAssertFalse(StreamClassifier().classify(clip).isAmbiguousRole, "PulseAudio keeps animation apart")
        clip.properties["client.api"] = "pipewire-pulse"
        let found = StreamClassifier().classify(clip)
        XCTAssertEqual(found.appClass, .media)
        XCTAssertTrue(found.isAmbiguousRole)
        XCTAssertEqual(found.description, "media (role: video, or animation through pipewire-pulse)")
        clip.properties["client.api"] = "pipewire-native"
        XCTAssertFalse(StreamClassifier().classify(clip).isAmbiguousRole)
        clip.properties["client.api"] = "pipewire-pulse"
        clip.role = "music"
        XCTAssertFalse(StreamClassifier().classify(clip).isAmbiguousRole, "music keeps its name through pipewire-pulse")
        clip.role = "video"
        XCTAssertFalse(classifier("app clip = media\n").classify(clip).isAmbiguousRole, "the user's rule settles it")
    }

    func testNameTable() {
        let zoom = StreamClassifier().classify(stream(.capture, name: "ZOOM VoiceEngine"))
        XCTAssertEqual(zoom.appClass, .call)
        XCTAssertEqual(zoom.reason, .nameTable("ZOOM VoiceEngine"))
        XCTAssertTrue(zoom.isCallCapture)
        XCTAssertFalse(zoom.isHeuristic)
        XCTAssertEqual(zoom.description, "call (name table: ZOOM VoiceEngine)")
        // Its playback belongs to the call session but does not begin the call.
        let playback = StreamClassifier().classify(stream(.playback, name: "ZOOM VoiceEngine"))
        XCTAssertEqual(playback.appClass, .call)
        XCTAssertFalse(playback.isCallCapture)

        let chromium = StreamClassifier().classify(stream(.capture, name: "Chromium input", binary: "chromium"))
        XCTAssertTrue(chromium.isHeuristic)
        XCTAssertTrue(chromium.isCallCapture)
        XCTAssertEqual(chromium.description, "heuristic call (name table: Chromium input)")
        let firefox = StreamClassifier().classify(stream(.playback, name: "Firefox"))
        XCTAssertEqual(firefox.appClass, .mixing, "a browser's playback alone is no call")
    }

    func testRoleComesBeforeTheNameTable() {
        let found = StreamClassifier().classify(stream(.capture, name: "ZOOM VoiceEngine", role: "music"))
        XCTAssertEqual(found.appClass, .media)
        XCTAssertEqual(found.reason, .role("music"))
        XCTAssertFalse(found.isCallCapture)
    }

    func testRulesComeFirstAndTheFirstMatchingOneWins() {
        let classifier = classifier("""
            flatpak us.zoom.Zoom = ignore
            app "ZOOM VoiceEngine" = mixing
            app Navi = prompt
            binary twinkle = playAndRecord voiceChat
            app Twinkle = game
            """)
        let zoom = classifier.classify(stream(.capture, name: "ZOOM VoiceEngine", role: "phone"))
        XCTAssertEqual(zoom.appClass, .mixing)
        XCTAssertEqual(zoom.reason, .rule(line: 2))
        XCTAssertFalse(zoom.isCallCapture)
        XCTAssertEqual(zoom.description, "mixing (rule line 2)")

        let sandboxed = classifier.classify(stream(.capture, name: "ZOOM VoiceEngine", flatpak: "us.zoom.Zoom"))
        XCTAssertEqual(sandboxed.appClass, .ignore)
        XCTAssertNil(sandboxed.configuration)
        XCTAssertEqual(sandboxed.reason, .rule(line: 1))

        let navi = classifier.classify(stream(name: "Navi", role: "music"))
        XCTAssertEqual(navi.appClass, .prompt)
        XCTAssertEqual(navi.configuration?.traits.ducksOthers, true)

        let twinkle = classifier.classify(stream(.capture, name: "Twinkle", binary: "twinkle"))
        XCTAssertEqual(twinkle.appClass, .custom)
        XCTAssertEqual(twinkle.reason, .rule(line: 4))
        XCTAssertTrue(twinkle.isCallCapture, "a rule's own call configuration begins a call")
        XCTAssertEqual(twinkle.description, "playAndRecord/voiceChat (rule line 4)")
    }

    func testACustomConfigurationThatMixesIsNoCall() {
        let found = classifier("app x = playAndRecord voiceChat mixWithOthers").classify(stream(.capture, name: "x"))
        XCTAssertEqual(found.appClass, .custom)
        XCTAssertFalse(found.isCallCapture)
    }

    func testAMonitorCaptureNeverBeginsACall() {
        let classifier = classifier("app recorder = call")
        for candidate in [stream(.capture, name: "ZOOM VoiceEngine"), stream(.capture, name: "x", role: "phone"),
                          stream(.capture, name: "recorder"), stream(.capture, name: "Chromium input")] {
            XCTAssertTrue(classifier.classify(candidate).isCallCapture, candidate.displayName)
            let monitor = classifier.classify(candidate, capturesMonitor: true)
            XCTAssertFalse(monitor.isCallCapture, candidate.displayName)
            XCTAssertEqual(monitor.appClass, .call, "the class stays; only the call does not begin")
        }
    }

    func testOnlyCaptureStreamsOfCallsAreCallCaptures() {
        for role in MediaRole.spellings.keys {
            let capture = StreamClassifier().classify(stream(.capture, name: "x", role: role))
            XCTAssertEqual(capture.isCallCapture, MediaRole(role) == .phone, role)
            XCTAssertFalse(StreamClassifier().classify(stream(.playback, name: "x", role: role)).isCallCapture, role)
        }
    }

    func testProtectedScreenReader() {
        let found = StreamClassifier().classify(stream(name: "speech-dispatcher", role: "a11y"))
        XCTAssertTrue(found.isProtected)
        XCTAssertEqual(found.description, "screenReader (role: a11y)")
    }

    /// The inventory's devices say which capture is of a monitor.
    func testTheInventoryTellsAMonitorCapture() {
        let zoom = AudioStream(id: StreamID(.capture, 4), applicationName: "ZOOM VoiceEngine", deviceIndex: 2)
        let monitor = AudioDevice(id: DeviceID(.source, 2), name: "null-sink.monitor", monitorOfSink: 0)
        let microphone = AudioDevice(id: DeviceID(.source, 2), name: "mic")
        let classifier = StreamClassifier()
        XCTAssertFalse(classifier.classify(zoom, in: AudioInventory(streams: [zoom.id: zoom], devices: [monitor.id: monitor])).isCallCapture)
        XCTAssertTrue(classifier.classify(zoom, in: AudioInventory(streams: [zoom.id: zoom], devices: [microphone.id: microphone])).isCallCapture)
        XCTAssertTrue(classifier.classify(zoom, in: AudioInventory(streams: [zoom.id: zoom])).isCallCapture,
                      "a source not (yet) known is taken as a microphone")
    }
}
