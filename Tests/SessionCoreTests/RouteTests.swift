import XCTest
@testable import SessionCore

/// Routes: every route change reason of the field notes, typed ports, the user's pick
/// (G-HEADPHONES-IN, G-HEADPHONES-OUT, G-ROUTE-PICK).
final class RouteTests: XCTestCase {
    func routeChanges(_ events: [SessionEvent]) -> [RouteChangeEvent] {
        events.compactMap { if case .routeChange(let change) = $0 { change } else { nil } }
    }

    func testPlugAndUnplugHeadphones() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        h.activate(music)
        _ = h.take(music)
        h.connect(headphones)
        let plugged = routeChanges(h.take(music))
        XCTAssertEqual(plugged.map(\.reason), [.newDeviceAvailable])
        XCTAssertEqual(plugged.first?.previousRoute.outputs, [.speaker])
        XCTAssertEqual(plugged.first?.currentRoute.outputs, [headphones])
        XCTAssertTrue(h.isActive(music), "G-HEADPHONES-IN: no interruption")

        h.disconnect(headphones.id)
        let unplugged = routeChanges(h.take(music))
        XCTAssertEqual(unplugged.map(\.reason), [.oldDeviceUnavailable])
        XCTAssertEqual(unplugged.first?.previousRoute.outputs, [headphones])
        XCTAssertEqual(unplugged.first?.currentRoute.outputs, [.speaker])
    }

    /// An audio server's sinks: the caller knows where each session really plays, so the
    /// engine's route (one device for everyone) pauses nobody and the caller names who lost
    /// their device (G-HEADPHONES-OUT per stream).
    func testLossReportedPerSessionPausesOnlyTheSessionsNamed() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let podcast = h.add(SessionConfiguration(.playback, options: .mixWithOthers))
        h.activate(music)
        h.activate(podcast)
        h.connect(headphones)
        _ = h.take(music)
        _ = h.take(podcast)

        let moved = h.engine.disconnect([headphones.id], scope: .noSession)
        h.record(moved)
        XCTAssertEqual(routeChanges(h.take(music)).map(\.reason), [.routeConfigurationChange], "moved, not paused")
        XCTAssertEqual(routeChanges(h.take(podcast)).map(\.reason), [.routeConfigurationChange])

        let lostEffects = h.engine.reportDeviceLoss([headphones], of: [podcast, SessionID(rawValue: 999)])
        h.record(lostEffects)
        XCTAssertEqual(h.take(music), [], "it played elsewhere")
        let lost = routeChanges(h.take(podcast))
        XCTAssertEqual(lost.map(\.reason), [.oldDeviceUnavailable])
        XCTAssertEqual(lost.first?.previousRoute.outputs, [headphones])
        XCTAssertEqual(lost.first?.currentRoute.outputs, [.speaker])
        XCTAssertEqual(h.engine.reportDeviceLoss([], of: [music]), [], "nothing lost, nothing said")
    }

    /// A scope that places some sessions: the route still decides for the others (a player with
    /// no known stream keeps the rule of the jack or of BlueZ), never for the placed ones.
    func testTheRouteDecidesOnlyForTheSessionsTheCallerDoesNotPlace() {
        let table: [(scope: (SessionID) -> DeviceLossScope, placed: RouteChangeReason, other: RouteChangeReason)] = [
            ({ _ in .everySession }, .oldDeviceUnavailable, .oldDeviceUnavailable),
            ({ _ in .noSession }, .routeConfigurationChange, .routeConfigurationChange),
            ({ .sessionsNotIn([$0]) }, .routeConfigurationChange, .oldDeviceUnavailable),
        ]
        for (makeScope, placedReason, otherReason) in table {
            var h = Harness()
            let placed = h.add(SessionConfiguration(.playback))
            let unplaced = h.add(SessionConfiguration(.playback, options: .mixWithOthers))
            let scope = makeScope(placed)
            h.activate(placed)
            h.activate(unplaced)
            h.connect(headphones)
            _ = h.take(placed)
            _ = h.take(unplaced)
            h.record(h.engine.disconnect([headphones.id], scope: scope))
            XCTAssertEqual(routeChanges(h.take(placed)).map(\.reason), [placedReason], "\(scope): placed")
            XCTAssertEqual(routeChanges(h.take(unplaced)).map(\.reason), [otherReason], "\(scope): not placed")
        }
    }

    func testUnplugOfAPortNotInTheRouteDoesNotBother() {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        h.connect(headphones)
        h.connect(bluetoothSpeaker)  // last connected wins
        XCTAssertEqual(h.snapshot(music)?.route.outputs, [bluetoothSpeaker])
        _ = h.take(music)
        h.disconnect(headphones.id)
        XCTAssertEqual(h.take(music), [])
    }

    func testUserOverrideAndNetworkReceivers() throws {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        let chat = h.add(SessionConfiguration(.playAndRecord))
        let chatAirPlay = h.add(SessionConfiguration(.playAndRecord, options: .allowNetworkReceivers))
        h.connect(livingRoom)
        XCTAssertEqual(h.snapshot(music)?.route.outputs, [.speaker], "network only when picked")
        _ = h.take(music)
        h.record(try h.engine.setRouteOverride(livingRoom.id))
        XCTAssertEqual(routeChanges(h.take(music)).map(\.reason), [.override])
        XCTAssertEqual(h.snapshot(music)?.route.outputs, [livingRoom])
        XCTAssertEqual(h.snapshot(chat)?.route.outputs, [.speaker], "playAndRecord needs allowNetworkReceivers")
        XCTAssertEqual(h.snapshot(chatAirPlay)?.route.outputs, [livingRoom])
        XCTAssertThrowsError(try h.engine.setRouteOverride("nope"))
        h.disconnect(livingRoom.id)
        XCTAssertNil(h.engine.conditions.routeOverride, "a vanished pick is cleared")
        XCTAssertEqual(routeChanges(h.take(music)).map(\.reason), [.oldDeviceUnavailable])
    }

    func testConfiguredOutputsAreUsedOnlyWhenPicked() throws {
        var h = Harness()
        let music = h.add(SessionConfiguration(.playback))
        h.activate(music)
        let dac = AudioPort(id: "usb-dac", name: "USB DAC", type: .usbAudio, pickOnly: true)
        h.connect(headphones)
        h.connect(dac)
        XCTAssertEqual(h.snapshot(music)?.route.outputs, [headphones], "a pick-only port never wins by appearing")
        _ = h.take(music)
        h.record(try h.engine.setRouteOverride(dac.id))
        XCTAssertEqual(routeChanges(h.take(music)).map(\.reason), [.override])
        XCTAssertEqual(h.snapshot(music)?.route.outputs, [dac])
        XCTAssertTrue(h.isActive(music), "G-ROUTE-PICK: a pick never interrupts")
        h.disconnect(headphones.id)
        XCTAssertEqual(h.take(music), [], "unplugging headphones the audio no longer goes to changes nothing")
        h.record(try h.engine.setRouteOverride(nil))
        XCTAssertEqual(h.snapshot(music)?.route.outputs, [.speaker], "automatic again: the DAC is not chosen")
        XCTAssertEqual(routeChanges(h.take(music)).map(\.reason), [.override])
    }

    func testBluetoothOptions() {
        var h = Harness()
        let hfp = AudioPort(id: "hfp", name: "Headset", type: .bluetoothHFP)
        let a2dp = AudioPort(id: "a2dp", name: "Headset", type: .bluetoothA2DP)
        let playback = h.add(SessionConfiguration(.playback))
        let call = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat))
        let btCall = h.add(SessionConfiguration(.playAndRecord, mode: .voiceChat, options: .allowBluetooth))
        let record = h.add(SessionConfiguration(.record, options: .allowBluetooth))
        let a2dpChat = h.add(SessionConfiguration(.playAndRecord, options: .allowBluetoothA2DP))
        h.connect(a2dp, hfp)
        XCTAssertEqual(h.snapshot(playback)?.route.outputs, [a2dp])
        XCTAssertEqual(h.snapshot(call)?.route, AudioRoute(inputs: [.builtInMic], outputs: [.speaker]))
        XCTAssertEqual(h.snapshot(btCall)?.route, AudioRoute(inputs: [hfp], outputs: [hfp]))
        XCTAssertEqual(h.snapshot(record)?.route, AudioRoute(inputs: [hfp], outputs: []))
        XCTAssertEqual(h.snapshot(a2dpChat)?.route.outputs, [a2dp])
    }

    func testDefaultToSpeakerPrefersSpeakerOverLineOut() {
        var h = Harness()
        let lineOut = AudioPort(id: "line", name: "Line Out", type: .lineOut)
        let plain = h.add(SessionConfiguration(.playAndRecord))
        let speaker = h.add(SessionConfiguration(.playAndRecord, options: .defaultToSpeaker))
        h.connect(lineOut)
        XCTAssertEqual(h.snapshot(plain)?.route.outputs, [lineOut])
        XCTAssertEqual(h.snapshot(speaker)?.route.outputs, [.speaker])
        h.connect(headphones)
        XCTAssertEqual(h.snapshot(speaker)?.route.outputs, [headphones], "private devices still win")
    }

    func testMultiRouteUsesEveryOutput() {
        var h = Harness()
        let hdmi = AudioPort(id: "hdmi", name: "TV", type: .hdmi)
        let id = h.add(SessionConfiguration(.multiRoute))
        h.connect(headphones, hdmi)
        XCTAssertEqual(h.snapshot(id)?.route.outputs, [.speaker, headphones, hdmi])
    }

    func testCategoryChangeReason() throws {
        var h = Harness()
        let id = h.add(SessionConfiguration(.playback))
        h.record(try h.engine.configure(id, SessionConfiguration(.playAndRecord)).effects)
        let changes = routeChanges(h.take(id))
        XCTAssertEqual(changes.map(\.reason), [.categoryChange])
        XCTAssertEqual(changes.first?.previousRoute, AudioRoute(outputs: [.speaker]))
        XCTAssertEqual(changes.first?.currentRoute, AudioRoute(inputs: [.builtInMic], outputs: [.speaker]))
    }

    func testWakeConfigurationAndUnknownReachEverySession() throws {
        for reason in [RouteChangeReason.wakeFromSleep, .routeConfigurationChange, .unknown] {
            var h = Harness()
            let a = h.add(SessionConfiguration(.playback)), b = h.add(SessionConfiguration(.record))
            h.record(try h.engine.reportRouteEvent(reason))
            XCTAssertEqual(routeChanges(h.take(a)).map(\.reason), [reason])
            XCTAssertEqual(routeChanges(h.take(b)).map(\.reason), [reason])
        }
        var h = Harness()
        for reason in [RouteChangeReason.newDeviceAvailable, .oldDeviceUnavailable, .override,
                       .categoryChange, .noSuitableRouteForCategory] {
            XCTAssertThrowsError(try h.engine.reportRouteEvent(reason))
        }
    }

    func testNoSuitableRouteInterruptsAndEndsWithoutResume() {
        var h = Harness(SystemConditions(availableInputs: [headsetMic]))
        let recorder = h.add(SessionConfiguration(.record))
        h.activate(recorder)
        _ = h.take(recorder)
        h.disconnect(headsetMic.id)
        let events = h.take(recorder)
        XCTAssertEqual(routeChanges(events).map(\.reason), [.noSuitableRouteForCategory])
        XCTAssertTrue(events.contains(.interruption(.began(reason: .routeDisconnected))))
        XCTAssertEqual(h.snapshot(recorder)?.interruptedBy, .routeDisconnected)
        h.connect(headsetMic)
        XCTAssertEqual(h.interruptions(recorder), [endedNoResume])
        XCTAssertFalse(h.isActive(recorder))
    }

    func testMicMuteInterruptsOnlyBuiltInMicRecordersAndNeverResumes() {
        var h = Harness()
        let builtIn = h.add(SessionConfiguration(.playAndRecord))
        let overriding = h.add(SessionConfiguration(.playAndRecord, options: [.overrideMutedMicrophoneInterruption, .mixWithOthers]))
        let music = h.add(SessionConfiguration(.ambient))
        h.activate(builtIn)
        h.activate(overriding)
        h.activate(music)
        h.micMuted(true)
        XCTAssertEqual(h.interruptions(builtIn), [.began(reason: .builtInMicMuted)])
        XCTAssertEqual(h.interruptions(overriding), [])
        XCTAssertEqual(h.interruptions(music), [])
        h.micMuted(false)
        XCTAssertEqual(h.interruptions(builtIn), [endedNoResume], "G-INT-MIC: never shouldResume")
    }

    func testOutputVolumeIsObservedNotSet() throws {
        var h = Harness()
        let id = h.add(SessionConfiguration(.playback))
        h.record(try h.engine.setOutputVolume(0.8))
        XCTAssertEqual(h.take(id), [.outputVolumeChanged(0.8)])
        XCTAssertEqual(h.engine.conditions.outputVolume, 0.8)
        h.record(try h.engine.setOutputVolume(0.8))
        XCTAssertEqual(h.take(id), [])
        XCTAssertThrowsError(try h.engine.setOutputVolume(1.5))
        XCTAssertThrowsError(try h.engine.setOutputVolume(.nan))
    }

    func testPortTypesAreTyped() {
        XCTAssertEqual(Set(PortType.allCases.filter(\.isInput)), [.headsetMic, .builtInMic, .bluetoothHFP, .usbAudio])
        XCTAssertEqual(Set(PortType.allCases.filter(\.isOutput)),
                       [.speaker, .headphones, .bluetoothA2DP, .bluetoothHFP, .usbAudio, .hdmi, .lineOut, .network])
        XCTAssertEqual(PortType.allCases.count, 10)
    }
}
