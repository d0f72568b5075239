import TestSupport
import XCTest
@testable import SessionCore

/// A policy engine plus a log of the events each session received (broadcasts expanded).
struct Harness {
    var engine: PolicyEngine
    private(set) var log: [SessionID: [SessionEvent]] = [:]

    init(_ conditions: SystemConditions = SystemConditions()) {
        engine = PolicyEngine(conditions: conditions)
    }

    /// Registers a session with `configuration` and granted record permission.
    mutating func add(_ configuration: SessionConfiguration,
                      permission: RecordPermission = .granted,
                      file: StaticString = #filePath, line: UInt = #line) -> SessionID {
        do {
            return try engine.register(configuration, recordPermission: permission)
        } catch {
            XCTFail("cannot register \(configuration): \(error)", file: file, line: line)
            return engine.register()
        }
    }

    mutating func record(_ effects: [PolicyEffect]) {
        guard !effects.isEmpty else { return }
        let registered = engine.sessionIDs
        for effect in effects {
            if case .session(let id) = effect.target {
                log[id, default: []].append(effect.event)
                continue
            }
            for id in registered where effect.target.includes(id) {
                log[id, default: []].append(effect.event)
            }
        }
    }

    @discardableResult
    mutating func activate(_ id: SessionID, _ options: ActivationOptions = []) -> PolicyDecision {
        let decision = engine.activate(id, options: options)
        record(decision.effects)
        return decision
    }

    @discardableResult
    mutating func deactivate(_ id: SessionID, notify: Bool = false) -> PolicyDecision {
        let decision = engine.deactivate(id, options: notify ? [.notifyOthersOnDeactivation] : [])
        record(decision.effects)
        return decision
    }

    mutating func remove(_ id: SessionID) { record(engine.remove(id)) }
    mutating func lock(_ locked: Bool) { record(engine.setLocked(locked)) }
    mutating func silent(_ on: Bool) { record(engine.setSilentMode(on)) }
    mutating func micMuted(_ muted: Bool) { record(engine.setBuiltInMicMuted(muted)) }
    mutating func connect(_ ports: AudioPort...) { record(engine.connect(ports)) }
    mutating func disconnect(_ ids: String...) { record(engine.disconnect(ids)) }

    /// Events received by `id`, cleared.
    mutating func take(_ id: SessionID) -> [SessionEvent] {
        defer { log[id] = [] }
        return log[id] ?? []
    }

    /// Only the interruption events received by `id`, cleared.
    mutating func interruptions(_ id: SessionID) -> [InterruptionEvent] {
        take(id).compactMap { if case .interruption(let event) = $0 { event } else { nil } }
    }

    func snapshot(_ id: SessionID) -> SessionSnapshot? { engine.session(id) }
    func isActive(_ id: SessionID) -> Bool { snapshot(id)?.isActive ?? false }
    func isInterrupted(_ id: SessionID) -> Bool { snapshot(id)?.isInterrupted ?? false }
    func isDucked(_ id: SessionID) -> Bool { snapshot(id)?.isDucked ?? false }
}


let began = InterruptionEvent.began(reason: .default)
let endedResume = InterruptionEvent.ended(options: .shouldResume)
let endedNoResume = InterruptionEvent.ended(options: [])

let headphones = AudioPort(id: "jack", name: "Headphones", type: .headphones)
let headsetMic = AudioPort(id: "jack-mic", name: "Headset Mic", type: .headsetMic)
let bluetoothSpeaker = AudioPort(id: "bt", name: "BT Speaker", type: .bluetoothA2DP)
let livingRoom = AudioPort(id: "lr", name: "Living Room", type: .network)

import Synchronization

/// Collects the events of an `AudioSession` through its callback form; reading waits for the
/// system's event thread to deliver everything decided so far.
final class EventRecorder: Sendable {
    private let box = ValueBox<[SessionEvent]>([])
    private let subscription: EventSubscription
    private let system: AudioSystem

    init(_ session: AudioSession) {
        let box = self.box
        system = session.system
        subscription = session.onEvent { event in box.value.withLock { $0.append(event) } }
    }

    /// Events so far, cleared.
    func take() -> [SessionEvent] {
        system.waitForDelivery()
        return box.value.withLock { events in
            let taken = events
            events = []
            return taken
        }
    }

    /// Interruption events so far, cleared (other events dropped).
    func interruptions() -> [InterruptionEvent] {
        take().compactMap { if case .interruption(let event) = $0 { event } else { nil } }
    }
}

/// An app in a test: a session, its controller, the player actions it performed and its events.
final class TestApp {
    let session: AudioSession
    var controller: PlaybackController
    let recorder: EventRecorder
    private(set) var output: [PlaybackAction] = []

    init(_ session: AudioSession, _ controller: PlaybackController) {
        self.session = session
        self.controller = controller
        recorder = EventRecorder(session)
    }

    func play(_ options: ActivationOptions = []) { run(controller.play(), options) }
    func pause() { run(controller.pause()) }
    func stop() { run(controller.stop()) }

    /// Feeds every recorded event to the controller and performs what it asks.
    func handleEvents() {
        for event in recorder.take() { run(controller.handle(event)) }
    }

    private func run(_ actions: [PlaybackAction], _ options: ActivationOptions = []) {
        session.perform(actions, with: &controller, activationOptions: options) { output.append($0) }
    }

    /// Player actions so far, cleared.
    func takeOutput() -> [PlaybackAction] { defer { output = [] }; return output }
}
