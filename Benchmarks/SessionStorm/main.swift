// bench-session-storm: 1,000 registered sessions, a seeded storm of 100,000 random
// activations/deactivations; prints decisions per second and the worst single decision time.
//
// Run: swift run -c release bench-session-storm [sessions] [decisions] [seed] [repetitions]
//
// The storm is deterministic, so it is replayed `repetitions` times (default 3) on a fresh engine:
// decisions/s is the best run, and "worst decision" is the largest of the per-decision minimum
// times (a decision's cost does not change between replays; preemption by other processes does).
// The raw worst of all runs is printed too.
import SessionCore

/// SplitMix64: a tiny deterministic generator so every run decides the same storm.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A realistic mix: mostly media players, then games, prompts, podcasts, chat, a few calls.
let mix: [(SessionConfiguration, Int)] = [
    (SessionConfiguration(.playback), 30),
    (SessionConfiguration(.playback, mode: .spokenAudio), 8),
    (SessionConfiguration(.soloAmbient), 10),
    (SessionConfiguration(.ambient), 15),
    (SessionConfiguration(.playback, options: [.mixWithOthers]), 10),
    (SessionConfiguration(.playback, mode: .voicePrompt,
                          options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers]), 8),
    (SessionConfiguration(.playAndRecord, mode: .voiceChat), 2),
    (SessionConfiguration(.playAndRecord, mode: .gameChat, options: [.mixWithOthers]), 5),
    (SessionConfiguration(.record), 4),
    (SessionConfiguration(.playAndRecord, mode: .measurement), 3),
    (SessionConfiguration(.audioProcessing), 5),
]

struct RunResult {
    var nanos: [Int64]
    var total: Int64
    var done = 0, delayed = 0, failed = 0, effects = 0, maxActive = 0
}

func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
}

/// One storm: registers `sessionCount` sessions, then `decisionCount` random decisions.
func storm(sessions sessionCount: Int, decisions decisionCount: Int, seed: UInt64) -> RunResult {
    let totalWeight = mix.reduce(0) { $0 + $1.1 }
    var rng = SplitMix64(state: seed)
    var engine = PolicyEngine()
    var ids: [SessionID] = []
    for _ in 0..<sessionCount {
        var pick = Int(rng.next() % UInt64(totalWeight))
        var configuration = mix[0].0
        for (candidate, weight) in mix {
            if pick < weight { configuration = candidate; break }
            pick -= weight
        }
        if let id = try? engine.register(configuration, recordPermission: .granted) { ids.append(id) }
    }
    var result = RunResult(nanos: [], total: 0)
    result.nanos.reserveCapacity(decisionCount)
    guard !ids.isEmpty else { return result }
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<decisionCount {
        let id = ids[Int(rng.next() % UInt64(ids.count))]
        let roll = rng.next() % 100
        let before = clock.now
        let decision: PolicyDecision
        if roll < 55 {
            decision = engine.activate(id, options: roll < 5 ? [.allowDelayedActivation] : [])
        } else {
            decision = engine.deactivate(id, options: roll < 80 ? [.notifyOthersOnDeactivation] : [])
        }
        result.nanos.append(nanoseconds(clock.now - before))
        switch decision.outcome {
        case .done: result.done += 1
        case .delayed: result.delayed += 1
        case .failed: result.failed += 1
        }
        result.effects += decision.effects.count
        result.maxActive = max(result.maxActive, engine.activeSessions.count)
    }
    result.total = nanoseconds(clock.now - start)
    return result
}

/// Two decimals without Foundation.
func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

func micros(_ nanos: Int64) -> String { format2(Double(nanos) / 1000) }

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let sessionCount = arguments.count > 0 ? max(1, arguments[0]) : 1_000
let decisionCount = arguments.count > 1 ? max(1, arguments[1]) : 100_000
let seed = UInt64(arguments.count > 2 ? max(0, arguments[2]) : 42)
let repetitions = arguments.count > 3 ? max(1, arguments[3]) : 3

var runs: [RunResult] = []
for _ in 0..<repetitions { runs.append(storm(sessions: sessionCount, decisions: decisionCount, seed: seed)) }

let first = runs[0]
var minimum = first.nanos
for run in runs.dropFirst() {
    for index in minimum.indices where run.nanos[index] < minimum[index] { minimum[index] = run.nanos[index] }
}
let bestTotal = runs.map(\.total).min() ?? first.total
let worstIndex = minimum.indices.max { minimum[$0] < minimum[$1] } ?? 0
let rawWorst = runs.flatMap(\.nanos).max() ?? 0
let sorted = minimum.sorted()
func percentile(_ p: Double) -> String { micros(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) }

print("sessions: \(sessionCount), decisions: \(decisionCount), seed: \(seed), repetitions: \(repetitions)")
print("done: \(first.done), delayed: \(first.delayed), failed: \(first.failed), "
      + "effects: \(first.effects), max active: \(first.maxActive)")
print("total (best run): \(format2(Double(bestTotal) / 1_000_000)) ms")
print("decisions/s: \(Int(Double(decisionCount) / (Double(bestTotal) / 1_000_000_000)))")
print("worst decision: \(micros(minimum.isEmpty ? 0 : minimum[worstIndex])) µs (decision #\(worstIndex)); "
      + "raw worst incl. preemption: \(micros(rawWorst)) µs")
print("p50: \(percentile(0.5)) µs, p99: \(percentile(0.99)) µs, p99.9: \(percentile(0.999)) µs")
