import TestSupport
import XCTest
@testable import SessionCore

/// Seeded random sequences of activations, deactivations (with and without notify), route events,
/// lock/unlock, mic mute, sleep and wake-up, reconfigurations and vanishing sessions. After every step and at the end
/// the invariants of G-INT-KINDS, G-INT-NOTIFY, G-CAT-OPTIONS and G-CALLS must hold.
final class PropertyTests: XCTestCase {
    enum Step {
        case activate(Int, delayed: Bool), deactivate(Int, notify: Bool), remove(Int), reconfigure(Int, Int)
        case lock(Bool), micMuted(Bool), connect(AudioPort), disconnect(String), override(String?)
        case background(Int, Bool), sleep(Bool)
    }

    struct World {
        var engine = PolicyEngine()
        var ids: [SessionID] = []
        /// Sessions with a *began* not yet followed by *ended*.
        var open: Set<SessionID> = []
        var removed: Set<SessionID> = []
        var beganCount = 0
    }

    static let pool = PairwiseArbitrationTests.configurations
    static let ports = [headphones, headsetMic, bluetoothSpeaker, livingRoom]

    func randomStep(_ rng: inout SeededRNG, sessions: Int) -> Step {
        let index = Int(rng.next() % UInt64(sessions))
        switch rng.next() % 100 {
        case 0..<35: return .activate(index, delayed: rng.next() % 4 == 0)
        case 35..<62: return .deactivate(index, notify: rng.next() % 2 == 0)
        case 62..<67: return .remove(index)
        case 67..<72: return .reconfigure(index, Int(rng.next() % UInt64(Self.pool.count)))
        case 72..<78: return .lock(rng.next() % 2 == 0)
        case 78..<83: return .micMuted(rng.next() % 2 == 0)
        case 83..<90: return .connect(Self.ports[Int(rng.next() % UInt64(Self.ports.count))])
        case 90..<94: return .disconnect(Self.ports[Int(rng.next() % UInt64(Self.ports.count))].id)
        case 94..<96: return .background(index, rng.next() % 2 == 0)
        case 96..<98: return .sleep(rng.next() % 2 == 0)
        default:
            let port = Self.ports[Int(rng.next() % UInt64(Self.ports.count))]
            return .override(rng.next() % 3 == 0 ? nil : port.id)
        }
    }

    /// Applies `step`; returns the effects and whether an *ended* with shouldResume is allowed in it.
    func apply(_ step: Step, to world: inout World, rng: inout SeededRNG) -> ([PolicyEffect], Bool) {
        switch step {
        case .activate(let i, let delayed):
            return (world.engine.activate(world.ids[i], options: delayed ? .allowDelayedActivation : []).effects, false)
        case .deactivate(let i, let notify):
            let decision = world.engine.deactivate(world.ids[i], options: notify ? .notifyOthersOnDeactivation : [])
            return (decision.effects, notify)
        case .remove(let i):
            let old = world.ids[i]
            let effects = world.engine.remove(old)
            world.removed.insert(old)
            world.open.remove(old)
            let configuration = Self.pool[Int(rng.next() % UInt64(Self.pool.count))]
            world.ids[i] = (try? world.engine.register(configuration, recordPermission: .granted))
                ?? world.engine.register(recordPermission: .granted)
            return (effects, false)
        case .reconfigure(let i, let c):
            // Only a lock-held victim can be released with shouldResume by a reconfiguration.
            return ((try? world.engine.configure(world.ids[i], Self.pool[c]).effects) ?? [], true)
        case .lock(let locked):
            return (world.engine.setLocked(locked), !locked)
        case .micMuted(let muted):
            return (world.engine.setBuiltInMicMuted(muted), false)
        case .connect(let port):
            return (world.engine.connect([port]), false)
        case .disconnect(let id):
            return (world.engine.disconnect([id]), false)
        case .override(let id):
            return ((try? world.engine.setRouteOverride(id)) ?? [], false)
        case .background(let i, let background):
            return ((try? world.engine.setInBackground(world.ids[i], background)) ?? [], !background)
        case .sleep(let start):
            // Nothing is resumed after a sleep.
            return (start ? world.engine.prepareForSleep() : world.engine.wokeFromSleep(), false)
        }
    }

    func check(_ effects: [PolicyEffect], resumeAllowed: Bool, world: inout World,
               label: @autoclosure () -> String) {
        for effect in effects {
            guard case .session(let id) = effect.target else { continue }
            XCTAssertFalse(world.removed.contains(id), "\(label()): event to a removed session")
            guard case .interruption(let event) = effect.event else { continue }
            switch event {
            case .began:
                XCTAssertFalse(world.open.contains(id), "\(label()): two began without ended for \(id)")
                world.open.insert(id)
                world.beganCount += 1
            case .ended(let options):
                XCTAssertTrue(world.open.contains(id), "\(label()): ended without began for \(id)")
                world.open.remove(id)
                if options.contains(.shouldResume) {
                    XCTAssertTrue(resumeAllowed, "\(label()): shouldResume from a non-notifying cause")
                }
            }
        }
        checkState(world, label: label())
    }

    func checkState(_ world: World, label: @autoclosure () -> String) {
        let engine = world.engine
        let active = engine.activeSessions.compactMap { engine.session($0) }
        for id in world.ids {
            guard let s = engine.session(id) else { XCTFail("\(label()): lost \(id)"); continue }
            XCTAssertEqual(s.isInterrupted, world.open.contains(id), "\(label()): pairing state of \(id)")
            XCTAssertFalse(s.isActive && s.isInterrupted, "\(label()): active and interrupted")
            if s.isDucked {
                let ducker = active.contains { $0.id != id && $0.configuration.options.contains(.duckOthers) }
                XCTAssertTrue(s.isActive && ducker, "\(label()): \(id) ducked without an active ducker")
            }
        }
        let calls = active.filter { $0.configuration.traits.isCall }
        XCTAssertLessThanOrEqual(calls.count, 1, "\(label()): two active calls")
        if !calls.isEmpty {
            for s in active where !s.configuration.traits.isCall {
                XCTAssertTrue(s.configuration.traits.isMixable, "\(label()): non-mixing \(s.configuration) during a call")
            }
        }
        let primaries = active.filter { $0.configuration.traits.isPrimaryAudio }
        XCTAssertLessThanOrEqual(primaries.count, 1, "\(label()): two non-mixing sessions play")
    }

    func testRandomSequencesKeepTheInvariants() {
        var totalBegan = 0
        for seed in UInt64(1)...150 {
            var rng = SeededRNG(seed: seed)
            var world = World()
            let sessions = 3 + Int(rng.next() % 6)
            for _ in 0..<sessions {
                let configuration = Self.pool[Int(rng.next() % UInt64(Self.pool.count))]
                world.ids.append((try? world.engine.register(configuration, recordPermission: .granted))
                                 ?? world.engine.register(recordPermission: .granted))
            }
            for stepIndex in 0..<250 {
                let step = randomStep(&rng, sessions: sessions)
                let (effects, allowed) = apply(step, to: &world, rng: &rng)
                check(effects, resumeAllowed: allowed, world: &world, label: "seed \(seed) step \(stepIndex) \(step)")
            }
            // Everything ends: unlock, unmute, give back the ports, deactivate until quiet.
            check(world.engine.setLocked(false), resumeAllowed: true, world: &world, label: "seed \(seed) unlock")
            for id in world.ids {
                check((try? world.engine.setInBackground(id, false)) ?? [], resumeAllowed: true, world: &world,
                      label: "seed \(seed) foreground")
            }
            check(world.engine.setBuiltInMicMuted(false), resumeAllowed: false, world: &world, label: "seed \(seed) unmute")
            check(world.engine.connect(Self.ports), resumeAllowed: false, world: &world, label: "seed \(seed) connect")
            check(world.engine.wokeFromSleep(), resumeAllowed: false, world: &world, label: "seed \(seed) wake-up")
            var rounds = 0
            repeat {
                for id in world.ids {
                    let notify = rng.next() % 2 == 0
                    let decision = world.engine.deactivate(id, options: notify ? .notifyOthersOnDeactivation : [])
                    check(decision.effects, resumeAllowed: notify, world: &world, label: "seed \(seed) final")
                }
                rounds += 1
            } while rounds < 20 && (!world.engine.activeSessions.isEmpty
                                    || !world.engine.pendingActivations.isEmpty || !world.open.isEmpty)
            XCTAssertTrue(world.engine.activeSessions.isEmpty, "seed \(seed): still active")
            XCTAssertTrue(world.open.isEmpty, "seed \(seed): began without ended: \(world.open) "
                          + world.open.map { "\(String(describing: world.engine.session($0)))" }.joined()
                          + " conditions \(world.engine.conditions)")
            for id in world.ids {
                XCTAssertEqual(world.engine.session(id)?.isDucked, false, "seed \(seed)")
            }
            for id in world.ids {
                let effects = world.engine.remove(id)
                world.removed.insert(id)
                world.open.remove(id)
                world.ids.removeAll { $0 == id }
                check(effects, resumeAllowed: false, world: &world, label: "seed \(seed) remove")
            }
            XCTAssertTrue(world.engine.sessionIDs.isEmpty)
            totalBegan += world.beganCount
        }
        XCTAssertGreaterThan(totalBegan, 1000, "the sequences really interrupt")
    }

    /// Vanishing interrupters in the middle of a stack always end their victims' interruptions.
    func testRandomRemovalOrderPairsEveryBegan() {
        for seed in UInt64(1)...100 {
            var rng = SeededRNG(seed: seed)
            var world = World()
            for _ in 0..<8 {
                let configuration = Self.pool[Int(rng.next() % UInt64(Self.pool.count))]
                world.ids.append((try? world.engine.register(configuration, recordPermission: .granted))
                                 ?? world.engine.register(recordPermission: .granted))
            }
            for id in world.ids.shuffled(using: &rng) {
                check(world.engine.activate(id).effects, resumeAllowed: false, world: &world, label: "seed \(seed)")
            }
            for id in world.ids.shuffled(using: &rng) {
                let effects = world.engine.remove(id)
                world.removed.insert(id)
                world.open.remove(id)
                world.ids.removeAll { $0 == id }
                check(effects, resumeAllowed: false, world: &world, label: "seed \(seed) remove")
                if let last = world.ids.first, world.ids.count == 1 {
                    XCTAssertEqual(world.engine.session(last)?.isInterrupted, false,
                                   "seed \(seed): nothing left to hold the last session")
                }
            }
        }
    }
}
