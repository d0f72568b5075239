import Synchronization
import XCTest
@testable import SessionCore

/// Events never run inside the call that caused them: an app may keep its controller behind a
/// lock, act under that lock and feed its events back into the controller.
final class EventDeliveryTests: XCTestCase {
    /// An app as apps are written: the controller in a `Mutex`, every step under it, `onEvent`
    /// feeding the controller. Interrupted, the user presses Play.
    final class LockedApp: Sendable {
        let session: AudioSession
        let controller: Mutex<PlaybackController>
        let output = Mutex<[PlaybackAction]>([])
        private let subscription = Mutex<EventSubscription?>(nil)

        init(_ session: AudioSession, _ profile: AppProfile) throws {
            self.session = session
            controller = Mutex(try session.apply(profile))
            let subscription = session.onEvent { [weak self] event in
                self?.step { $0.handle(event) }
            }
            self.subscription.withLock { $0 = subscription }
        }

        func step(_ body: (inout PlaybackController) -> [PlaybackAction]) {
            controller.withLock { controller in
                session.perform(body(&controller), with: &controller) { action in
                    output.withLock { $0.append(action) }
                }
            }
        }

        var state: PlaybackController.State { controller.withLock { $0.state } }
    }

    func testInterruptedAppWithItsControllerInAMutexPressesPlay() throws {
        let system = AudioSystem()
        let music = try LockedApp(try system.makeSession(), .mediaPlayer())
        let rival = try LockedApp(try system.makeSession(), .mediaPlayer())
        music.step { $0.play() }
        rival.step { $0.play() }
        system.waitForDelivery()
        XCTAssertEqual(music.state, PlaybackController.State.interrupted(wasPlaying: true, reason: .default))

        music.step { $0.play() }  // delivered on the caller's stack, its own events re-lock the Mutex
        system.waitForDelivery()
        XCTAssertEqual(music.state, PlaybackController.State.playing)
        XCTAssertTrue(music.session.isActive)
        XCTAssertEqual(rival.state, PlaybackController.State.interrupted(wasPlaying: true, reason: .default))
    }

    /// Two sessions of one app share one lock: the session an activation interrupts hears of it
    /// while the activating code still holds the lock.
    func testEventsOfAnotherSessionWaitForTheCallersLock() throws {
        let system = AudioSystem()
        let music = try system.makeSession(SessionConfiguration(.playback))
        let navigation = try system.makeSession(SessionConfiguration(.playback))
        let appLock = Mutex<[InterruptionEvent]>([])
        let subscription = music.interruptionHandler { event in appLock.withLock { $0.append(event) } }
        try music.setActive(true)
        _ = try appLock.withLock { _ in try navigation.setActive(true) }
        system.waitForDelivery()
        XCTAssertEqual(appLock.withLock { $0 }, [began])
        subscription.cancel()
    }

    /// Events decided on many threads at once reach each session in decision order: *began* and
    /// *ended* alternate, starting with *began*.
    func testEachSessionSeesItsInterruptionsPairedUnderConcurrentUse() async throws {
        let system = AudioSystem()
        var sessions: [AudioSession] = []
        for _ in 0..<8 { sessions.append(try system.makeSession(SessionConfiguration(.playback))) }
        let logs = Mutex<[SessionID: [InterruptionEvent]]>([:])
        let subscriptions = sessions.map { session in
            session.onEvent { event in
                if case .interruption(let interruption) = event {
                    logs.withLock { $0[session.id, default: []].append(interruption) }
                }
            }
        }
        let all = sessions
        await withTaskGroup(of: Void.self) { group in
            for (index, session) in all.enumerated() {
                group.addTask {
                    for round in 0..<100 {
                        let notify: ActivationOptions = (round + index) % 2 == 0 ? .notifyOthersOnDeactivation : []
                        _ = try? session.setActive(true)
                        _ = try? session.setActive(false, options: notify)
                    }
                }
            }
        }
        system.waitForDelivery()
        for (id, log) in logs.withLock({ $0 }) {
            for (index, event) in log.enumerated() {
                let isBegan = if case .began = event { true } else { false }
                XCTAssertEqual(isBegan, index % 2 == 0, "session \(id.rawValue): \(log)")
            }
        }
        XCTAssertEqual(subscriptions.count, all.count)
    }

    /// A released session's stream ends after the events queued before its release.
    func testAStreamEndsBehindItsQueuedEvents() async throws {
        let system = AudioSystem()
        var music: AudioSession? = try system.makeSession(SessionConfiguration(.playback))
        let rival = try system.makeSession(SessionConfiguration(.playback))
        let events = music?.interruptions
        try music?.setActive(true)
        try rival.setActive(true)
        music = nil
        var received: [InterruptionEvent] = []
        if let events { for await event in events { received.append(event) } }
        XCTAssertEqual(received, [began])
    }

    func testWaitForDeliveryFromAHandlerReturns() throws {
        let system = AudioSystem()
        let music = try system.makeSession(SessionConfiguration(.playback))
        let rival = try system.makeSession(SessionConfiguration(.playback))
        let handled = Mutex(0)
        let subscription = music.interruptionHandler { _ in
            system.waitForDelivery()
            handled.withLock { $0 += 1 }
        }
        try music.setActive(true)
        try rival.setActive(true)
        system.waitForDelivery()
        XCTAssertEqual(handled.withLock { $0 }, 1)
        subscription.cancel()
    }
}

extension AudioSession {
    /// `onEvent` for interruptions only.
    func interruptionHandler(_ handler: @escaping @Sendable (InterruptionEvent) -> Void) -> EventSubscription {
        onEvent { event in if case .interruption(let interruption) = event { handler(interruption) } }
    }
}
