// bench-unplug: unplug-to-pause latency of `mprisd play` (see Benchmarks/unplug.sh).
//
//   bench-unplug --state STATEFILE --name NAME [--count 100]
//
// Each round: the headphones are plugged and the player plays; the fake card's state file is
// rewritten with the headphones unplugged (the jack event) and the clock starts; it stops when
// `PlaybackStatus` `Paused` arrives on the session bus in a PropertiesChanged of the player.
// Prints the median and p99 in milliseconds.
import DBus
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    let line = "bench-unplug: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

func nowNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Writes the fake card's state atomically (temp + rename), as the test harness does.
func writeState(_ path: String, headphones: Bool) {
    let text = "headphone=\(headphones ? 1 : 0)\nheadsetmic=0\ndockmute=0\nvolume=60,60\nswitch=1,1\n"
    let temporary = path + ".bench"
    guard let file = fopen(temporary, "w") else { fail("cannot write \(temporary)") }
    fputs(text, file)
    fclose(file)
    guard rename(temporary, path) == 0 else { fail("cannot rename \(temporary)") }
}

var statePath: String?
var name: String?
var count = 100
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--state": statePath = arguments.popFirst()
    case "--name": name = arguments.popFirst()
    case "--all", "--via-dbus": break
    case "--count": count = arguments.popFirst().flatMap { Int($0) } ?? count
    default: fail("unknown argument \(flag)")
    }
}
guard let statePath, let name else { fail("usage: bench-unplug --state STATEFILE --name NAME [--count N]") }
let busName = "org.mpris.MediaPlayer2.\(name)"

/// The last PlaybackStatus seen, and when.
let status = Mutex<(value: String, at: Int64)>(("", 0))
do {
    let connection = try Connection(bus: .session)
    let rule = MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                         path: try ObjectPath("/org/mpris/MediaPlayer2"), arguments: [0: "org.mpris.MediaPlayer2.Player"])
    _ = try await connection.subscribe(rule) { message in
        guard message.body.count == 3, case .dictionary(_, _, let entries) = message.body[1] else { return }
        for entry in entries where entry.key == .string("PlaybackStatus") {
            if case .variant(.string(let value)) = entry.value {
                let at = nowNanoseconds()
                status.withLock { $0 = (value, at) }
            }
        }
    }
    let player = try ObjectPath("/org/mpris/MediaPlayer2")
    let current = try await connection.call(destination: busName, path: player,
                                            interface: "org.freedesktop.DBus.Properties", member: "Get",
                                            [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus")])
    if case .variant(.string(let value))? = current.first {
        status.withLock { if $0.value.isEmpty { $0 = (value, nowNanoseconds()) } }
    }
    func waitFor(_ wanted: String, since start: Int64) async -> Int64? {
        for _ in 0..<2_000 {
            let (value, at) = status.withLock { $0 }
            if value == wanted && at >= start { return at }
            try? await Task.sleep(for: .microseconds(500))
        }
        return nil
    }
    var latencies: [Double] = []
    var first: Double?
    // One unmeasured warm-up round (first use of every code path), then `count` measured ones.
    for round in 0...count {
        writeState(statePath, headphones: true)
        try await Task.sleep(for: .milliseconds(30))
        _ = try await connection.call(destination: busName, path: player, interface: "org.mpris.MediaPlayer2.Player",
                                      member: "Play")
        if status.withLock({ $0.value }) != "Playing", await waitFor("Playing", since: 0) == nil {
            fail("round \(round): the player did not play")
        }
        // A random phase against the player's 10 ms write cycle.
        try await Task.sleep(for: .microseconds(50_000 + Int.random(in: 0..<10_000)))
        let unplugAt = nowNanoseconds()
        if CommandLine.arguments.contains("--via-dbus") {
            // For comparison: the same pause asked for over MPRIS instead of by the jack.
            connection.call(.methodCall(destination: busName, path: player, interface: "org.mpris.MediaPlayer2.Player",
                                        member: "Pause")) { _ in }
        } else {
            writeState(statePath, headphones: false)
        }
        guard let pausedAt = await waitFor("Paused", since: unplugAt) else { fail("round \(round): no pause") }
        let latency = Double(pausedAt - unplugAt) / 1e6
        if round == 0 { first = latency } else { latencies.append(latency) }
    }
    latencies.sort()
    let median = latencies[latencies.count / 2]
    let p99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
    if CommandLine.arguments.contains("--all") { print(latencies.map { String(format2: $0) }.joined(separator: " ")) }
    print("warm-up unplug (not counted): \(String(format2: first ?? 0)) ms")
    print("unplugs=\(latencies.count) median_ms=\(String(format2: median)) p99_ms=\(String(format2: p99)) max_ms=\(String(format2: latencies.last ?? 0))")
} catch {
    fail("\(error)")
}

extension String {
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        self = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}
