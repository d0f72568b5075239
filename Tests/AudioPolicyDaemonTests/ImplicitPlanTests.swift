@testable import AppClassification
@testable import AudioPolicyDaemon
import AudioServer
import SessionCore
import XCTest

/// The plan of implicit sessions, without a server: one session per app, the class of its
/// strongest stream, activity while it sounds, calls begun by capture streams, the corked grace
/// period and the browser input's minimum time, covered and server-own streams left out.
final class ImplicitPlanTests: XCTestCase {
    private let timing = CallTiming(corkedGrace: .seconds(5), heuristicMinimum: .seconds(3))
    private let start = ContinuousClock.now
    /// When each stream was first planned, as the stream policy records it.
    private var appeared: [StreamID: ContinuousClock.Instant] = [:]

    private func stream(_ direction: StreamDirection, _ index: UInt32, name: String, pid: Int32? = 100,
                        binary: String? = "app", role: String? = nil, corked: Bool = false,
                        flatpak: String? = nil, properties: [String: String] = [:]) -> AudioStream {
        AudioStream(id: StreamID(direction, index), applicationName: name, binary: binary, processID: pid,
                    flatpakID: flatpak, role: role, isCorked: corked, properties: properties)
    }

    private func plan(_ streams: [AudioStream], at offset: Duration = .zero, clocks: inout ImplicitPlan.CallClocks,
                      rules: String = "", covered: Set<StreamID> = []) -> ImplicitPlan {
        let inventory = AudioInventory(server: ServerIdentity(name: "test", version: "1", cookie: 1),
                                       streams: Dictionary(uniqueKeysWithValues: streams.map { ($0.id, $0) }))
        for stream in streams where appeared[stream.id] == nil { appeared[stream.id] = start + offset }
        return ImplicitPlan(inventory: inventory, classifier: StreamClassifier(rules: AppRules(parsing: rules, path: "/apps")),
                            timing: timing, clocks: &clocks, appeared: appeared, now: start + offset) { covered.contains($0.id) }
    }

    private func plan(_ streams: [AudioStream], rules: String = "", covered: Set<StreamID> = []) -> ImplicitPlan {
        var clocks = ImplicitPlan.CallClocks()
        return plan(streams, clocks: &clocks, rules: rules, covered: covered)
    }

    func testOneSessionPerProcessActiveWhileItPlays() throws {
        let planned = plan([stream(.playback, 1, name: "tabs", pid: 10), stream(.playback, 2, name: "tabs", pid: 10, corked: true),
                            stream(.playback, 3, name: "other", pid: 11, corked: true)])
        XCTAssertEqual(planned.apps.count, 2)
        let tabs = try XCTUnwrap(planned.apps.values.first { $0.face.processID == 10 })
        XCTAssertEqual(tabs.playback, [StreamID(.playback, 1), StreamID(.playback, 2)])
        XCTAssertTrue(tabs.hasSession)
        XCTAssertTrue(tabs.wantsActive, "one of its streams plays")
        XCTAssertEqual(tabs.streamClass.appClass, .mixing)
        let other = try XCTUnwrap(planned.apps.values.first { $0.face.processID == 11 })
        XCTAssertFalse(other.wantsActive, "all its streams are corked (G-ACTIVATE-MINIMAL)")
    }

    func testAFlatpakAppIsOneAppAcrossItsProcesses() {
        let planned = plan([stream(.playback, 1, name: "a", pid: 10, flatpak: "org.example.App"),
                            stream(.capture, 2, name: "a", pid: 12, flatpak: "org.example.App")])
        XCTAssertEqual(planned.apps.count, 1)
    }

    func testServerOwnAndCoveredStreamsAreNoApps() {
        let planned = plan([stream(.playback, 1, name: "Loopback", pid: nil, binary: nil),
                            stream(.playback, 2, name: "mpv", pid: 20),
                            stream(.capture, 3, name: "ZOOM VoiceEngine", pid: 30)],
                           covered: [StreamID(.playback, 2)])
        XCTAssertEqual(planned.apps.count, 1)
        XCTAssertEqual(planned.apps.values.first?.face.applicationName, "ZOOM VoiceEngine")
    }

    func testACallAppsCaptureBeginsTheCallItsPlaybackAloneDoesNot() throws {
        let alone = try XCTUnwrap(plan([stream(.playback, 1, name: "ZOOM VoiceEngine")]).apps.values.first)
        XCTAssertTrue(alone.hasSession)
        XCTAssertFalse(alone.wantsActive, "ringing or between calls: no call")
        let call = try XCTUnwrap(plan([stream(.playback, 1, name: "ZOOM VoiceEngine"),
                                       stream(.capture, 2, name: "ZOOM VoiceEngine")]).apps.values.first)
        XCTAssertTrue(call.wantsActive)
        XCTAssertEqual(call.streamClass.configuration?.traits.isCall, true)
        let phone = try XCTUnwrap(plan([stream(.capture, 2, name: "softphone", role: "phone")]).apps.values.first)
        XCTAssertTrue(phone.wantsActive, "a capture-only call app is a call too")
    }

    func testACorkedCallCaptureKeepsTheCallForTheGracePeriod() throws {
        var clocks = ImplicitPlan.CallClocks()
        let corked = [stream(.capture, 2, name: "ZOOM VoiceEngine", corked: true)]
        let first = plan(corked, at: .seconds(10), clocks: &clocks)
        XCTAssertEqual(first.apps.values.first?.wantsActive, true, "muting yourself is no hanging up")
        XCTAssertEqual(first.wakeAt, start + .seconds(15), "decide again when the grace ends")
        let later = plan(corked, at: .seconds(14), clocks: &clocks)
        XCTAssertEqual(later.apps.values.first?.wantsActive, true)
        let over = plan(corked, at: .seconds(15), clocks: &clocks)
        XCTAssertEqual(over.apps.values.first?.wantsActive, false, "corked past the grace: the call ended")
        XCTAssertNil(over.wakeAt)
        // Recording again starts a fresh grace next time.
        _ = plan([stream(.capture, 2, name: "ZOOM VoiceEngine")], at: .seconds(16), clocks: &clocks)
        let again = plan(corked, at: .seconds(17), clocks: &clocks)
        XCTAssertEqual(again.apps.values.first?.wantsActive, true)
    }

    /// A device switch mid-call (issue 24): the capture closes and a new one opens. The call goes
    /// on for the reopen grace with no stream at all; a capture opening in it carries it on; past
    /// it, the call is over.
    func testACallWhoseMicrophoneClosesGoesOnForTheReopenGrace() throws {
        var clocks = ImplicitPlan.CallClocks()
        let key = AppKey(stream(.capture, 2, name: "ZOOM VoiceEngine"))
        let live = plan([stream(.capture, 2, name: "ZOOM VoiceEngine")], at: .seconds(1), clocks: &clocks)
        XCTAssertEqual(live.apps[key]?.wantsActive, true)
        let closed = plan([], at: .seconds(2), clocks: &clocks)
        let going = try XCTUnwrap(closed.apps[key], "the call goes on with no stream")
        XCTAssertTrue(going.wantsActive && going.hasSession)
        XCTAssertEqual(going.streams, [])
        XCTAssertEqual(going.streamClass.configuration?.traits.isCall, true)
        XCTAssertEqual(closed.wakeAt, start + .seconds(2) + .milliseconds(500), "decide again when the grace ends")
        let reopened = plan([stream(.capture, 3, name: "ZOOM VoiceEngine")], at: .seconds(2) + .milliseconds(30), clocks: &clocks)
        XCTAssertEqual(reopened.apps[key]?.wantsActive, true)
        XCTAssertNil(reopened.wakeAt)
        // Closed again: a fresh grace, from this closing.
        let again = plan([], at: .seconds(3), clocks: &clocks)
        XCTAssertEqual(again.apps[key]?.wantsActive, true)
        XCTAssertEqual(again.wakeAt, start + .seconds(3) + .milliseconds(500))
        let over = plan([], at: .seconds(3) + .milliseconds(500), clocks: &clocks)
        XCTAssertNil(over.apps[key], "past the grace the call is over")
        XCTAssertNil(over.wakeAt)
        XCTAssertNil(plan([], at: .seconds(4), clocks: &clocks).apps[key])
    }

    func testACallAppsPlaybackOutlivingItsMicrophoneKeepsTheCallOnlyForTheGrace() {
        var clocks = ImplicitPlan.CallClocks()
        let playback = stream(.playback, 1, name: "ZOOM VoiceEngine")
        let key = AppKey(playback)
        _ = plan([playback, stream(.capture, 2, name: "ZOOM VoiceEngine")], clocks: &clocks)
        XCTAssertEqual(plan([playback], at: .milliseconds(100), clocks: &clocks).apps[key]?.wantsActive, true)
        XCTAssertEqual(plan([playback], at: .milliseconds(600), clocks: &clocks).apps[key]?.wantsActive, false,
                       "its playback alone is no call")
    }

    func testABrowserCallsReopenedInputIsACallAtOnce() {
        var clocks = ImplicitPlan.CallClocks()
        let playback = stream(.playback, 1, name: "Chromium", pid: 41, binary: "chrome")
        let input = stream(.capture, 2, name: "Chromium input", pid: 40, binary: "chrome")
        let key = AppKey(input)
        _ = plan([playback, input], clocks: &clocks)
        XCTAssertEqual(plan([playback, input], at: .seconds(3), clocks: &clocks).apps[key]?.wantsActive, true)
        XCTAssertEqual(plan([playback], at: .seconds(4), clocks: &clocks).apps[key]?.wantsActive, true, "the grace")
        let reopened = stream(.capture, 3, name: "Chromium input", pid: 40, binary: "chrome")
        XCTAssertEqual(plan([playback, reopened], at: .seconds(4) + .milliseconds(50), clocks: &clocks).apps[key]?.wantsActive, true,
                       "no new minimum time for the same call")
        XCTAssertEqual(plan([playback, reopened], at: .seconds(5), clocks: &clocks).apps[key]?.wantsActive, true)
    }

    func testABrowserInputIsACallOnlyHeldWithPlaybackForTheMinimumTime() throws {
        var clocks = ImplicitPlan.CallClocks()
        let input = stream(.capture, 2, name: "Chromium input", pid: 40, binary: "chrome")
        // Without playback of its process: never a call, nothing to wait for.
        let lonely = plan([input], clocks: &clocks)
        XCTAssertEqual(lonely.apps.values.first?.wantsActive, false)
        XCTAssertNil(lonely.wakeAt)
        // With playback of the same binary (another process of the browser): a candidate.
        let playback = stream(.playback, 1, name: "Chromium", pid: 41, binary: "chrome")
        let candidate = plan([playback, input], at: .seconds(1), clocks: &clocks)
        let app = try XCTUnwrap(candidate.apps.values.first { $0.face.processID == 40 })
        XCTAssertFalse(app.wantsActive)
        XCTAssertEqual(candidate.wakeAt, start + .seconds(4))
        XCTAssertEqual(app.waiting, "heuristic call: held 0.0 s of 3.0 s with playback")
        let voiceSearch = plan([playback, input], at: .seconds(3), clocks: &clocks)
        XCTAssertEqual(voiceSearch.apps.values.first { $0.face.processID == 40 }?.wantsActive, false)
        let call = plan([playback, input], at: .seconds(4), clocks: &clocks)
        let held = try XCTUnwrap(call.apps.values.first { $0.face.processID == 40 })
        XCTAssertTrue(held.wantsActive, "held three seconds: a call")
        XCTAssertEqual(held.streamClass.configuration?.traits.isCall, true)
        // The playback stops: the clock starts again from nothing.
        _ = plan([input], at: .seconds(5), clocks: &clocks)
        let restarted = plan([playback, input], at: .seconds(6), clocks: &clocks)
        XCTAssertEqual(restarted.apps.values.first { $0.face.processID == 40 }?.wantsActive, false)
        XCTAssertEqual(restarted.wakeAt, start + .seconds(9))
    }

    func testTheStrongestPlaybackClassIsTheAppsAndRulesAndIgnoreApply() throws {
        let mixed = try XCTUnwrap(plan([stream(.playback, 1, name: "app", role: "event"),
                                        stream(.playback, 2, name: "app", role: "navigation")]).apps.values.first)
        XCTAssertEqual(mixed.streamClass.appClass, .prompt)
        let ruled = plan([stream(.playback, 1, name: "radio", role: "phone"), stream(.capture, 2, name: "radio", role: "phone")],
                         rules: "app radio = ignore\n")
        XCTAssertTrue(ruled.apps.isEmpty)
        XCTAssertEqual(ruled.ignored.count, 1)
        let game = try XCTUnwrap(plan([stream(.playback, 1, name: "quake", role: "game")], rules: "app quake = soloAmbient\n").apps.values.first)
        XCTAssertEqual(game.streamClass.configuration, SessionConfiguration(.soloAmbient))
    }

    func testARecorderThatIsNoCallHasNoSession() throws {
        let recorder = try XCTUnwrap(plan([stream(.capture, 1, name: "audacity")]).apps.values.first)
        XCTAssertFalse(recorder.hasSession)
    }

    func testNewNonMixingPlaybackWaitsForAPlayersClaimMixingAndCallsDoNot() throws {
        var clocks = ImplicitPlan.CallClocks()
        let music = stream(.playback, 1, name: "radio", pid: 50, role: "music")
        let first = plan([music], clocks: &clocks)
        XCTAssertEqual(first.apps.values.first?.wantsActive, false, "half a second for an MPRIS player to claim it")
        XCTAssertEqual(first.wakeAt, start + .milliseconds(500))
        let later = plan([music], at: .milliseconds(500), clocks: &clocks)
        XCTAssertEqual(later.apps.values.first?.wantsActive, true)
        XCTAssertNil(later.wakeAt)
        var other = ImplicitPlan.CallClocks()
        XCTAssertEqual(plan([stream(.playback, 1, name: "jukebox", pid: 51)], clocks: &other).apps.values.first?.wantsActive, true,
                       "mixing playback acts at once")
        XCTAssertEqual(plan([stream(.capture, 2, name: "ZOOM VoiceEngine", pid: 52)], clocks: &other).apps.values.first?.wantsActive,
                       true, "a call acts at once")
    }

    /// Issue 24: a pulse client's `video` through pipewire-pulse may be an `animation` sound; it
    /// activates only once it has lasted `ambiguousRoleWait`, so a short one never pauses the music.
    func testAVideoThatMayBeAnAnimationActivatesOnlyOnceItHasOutlastedOne() throws {
        var clocks = ImplicitPlan.CallClocks()
        let pulseClient = ["client.api": "pipewire-pulse"]
        let clip = stream(.playback, 1, name: "clip", pid: 60, role: "video", properties: pulseClient)
        let first = try XCTUnwrap(plan([clip], clocks: &clocks).apps.values.first)
        XCTAssertEqual(first.streamClass.appClass, .media)
        XCTAssertTrue(first.streamClass.isAmbiguousRole)
        XCTAssertEqual(first.streamClass.reason.description, "role: video, or animation through pipewire-pulse")
        XCTAssertFalse(first.wantsActive)
        XCTAssertFalse(try XCTUnwrap(plan([clip], at: .milliseconds(2900), clocks: &clocks).apps.values.first).wantsActive,
                       "past the player's claim, still within an animation's length")
        let held = plan([clip], at: .seconds(3), clocks: &clocks)
        XCTAssertEqual(held.apps.values.first?.wantsActive, true, "three seconds on: the video it says it is")
        // The same role from a native client, or on PulseAudio, is a video: only the claim's wait.
        var other = ImplicitPlan.CallClocks()
        let movie = stream(.playback, 2, name: "movie", pid: 61, role: "video")
        XCTAssertEqual(plan([movie], clocks: &other).apps.values.first?.streamClass.isAmbiguousRole, false)
        XCTAssertEqual(plan([movie], at: .milliseconds(500), clocks: &other).apps.values.first?.wantsActive, true)
    }
}
