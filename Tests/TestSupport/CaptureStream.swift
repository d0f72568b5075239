import Foundation
import Synchronization

/// A real capture stream on a test server: `parec` recording a source (by default the null sink's
/// monitor: what a listener hears) as raw s16le stereo at 48 kHz, kept as it arrives so a test can
/// measure its level (`measure`, `waitForLoudness`). Tagged with properties like `PlayingStream`,
/// it is also a recording app as a policy daemon sees one (`index()` in source-outputs).
///
/// The audio arrives in chunks of `latencyMilliseconds` through parec's standard output; every
/// waiter is checked as a chunk lands, so nothing polls. The last `keptSeconds` are kept.
public final class CaptureStream: Sendable {
    public static let sampleRate = 48_000
    public static let channels = 2
    /// How much audio is kept (older frames are dropped; frame numbers keep counting).
    public static let keptSeconds = 30

    /// The value of `TestStream.idProperty` on this stream.
    public let id: String
    /// The source recorded.
    public let device: String
    private let process: BackgroundProcess
    private let server: any TestAudioServer
    private let shared: Shared

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private struct State {
        /// A partial frame left from the last chunk.
        var partial: [UInt8] = []
        /// Interleaved samples of frames `dropped ..< total`.
        var samples: [Int16] = []
        var dropped = 0
        var total = 0
        var ended = false
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0

        /// RMS (0…1 of full scale) of frames `range`, nil if not all of them are kept.
        func rms(frames range: Range<Int>) -> Double? {
            guard range.lowerBound >= dropped, range.upperBound <= total, !range.isEmpty else { return nil }
            let start = (range.lowerBound - dropped) * CaptureStream.channels
            let end = (range.upperBound - dropped) * CaptureStream.channels
            return Loudness.rms(samples[start..<end])
        }
    }

    /// Someone waiting for the audio to reach a condition: `check` sees the state after each chunk
    /// and returns the RMS that satisfied it (or nil, and notes the last RMS it saw).
    private struct Waiter {
        let check: @Sendable (State) -> Double?
        let continuation: CheckedContinuation<Double, any Error>
        var lastSeen: @Sendable (State) -> String
    }

    /// Starts recording at once.
    /// - Parameters:
    ///   - device: the source (default: the server's null-sink monitor).
    ///   - role: `media.role` of the capture stream (nil: none, as a level meter would have).
    ///   - latencyMilliseconds: parec's fragment: how often audio arrives.
    public init(on server: any TestAudioServer, device: String? = nil, role: String? = nil,
                applicationName: String = "mprisd-test-capture", properties: [String: String] = [:],
                latencyMilliseconds: Int = 20, lifetime: Duration = .seconds(300)) throws {
        let id = TestStream.newID()
        var all = ["application.name": applicationName, TestStream.idProperty: id]
        if let role { all["media.role"] = role }
        all.merge(properties) { _, new in new }
        self.id = id
        self.device = device ?? server.monitorName
        self.server = server
        let shared = Shared()
        self.shared = shared
        let arguments = TestStream.wrapped("/usr/bin/parec", lifetime: lifetime) + TestStream.propertyArguments(all)
            + ["--device=\(self.device)", "--format=s16le", "--rate=\(Self.sampleRate)", "--channels=\(Self.channels)",
               "--raw", "--latency-msec=\(latencyMilliseconds)"]
        process = try BackgroundProcess(name: "parec", "/usr/bin/timeout", arguments, environment: server.environment,
                                        onOutput: { Self.received($0, shared) },
                                        onExit: { status, stderr in Self.ended(status, stderr, shared) })
    }

    /// A chunk of parec's output: whole frames appended, waiters checked.
    private static func received(_ chunk: Data, _ shared: Shared) {
        let satisfied = shared.state.withLock { state -> [(CheckedContinuation<Double, any Error>, Double)] in
            var bytes = state.partial
            bytes.append(contentsOf: chunk)
            let frameBytes = channels * 2
            let whole = bytes.count / frameBytes * frameBytes
            state.partial = Array(bytes[whole...])
            state.samples.reserveCapacity(state.samples.count + whole / 2)
            var offset = 0
            while offset < whole {
                state.samples.append(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
                offset += 2
            }
            state.total += whole / frameBytes
            let kept = keptSeconds * sampleRate
            if state.total - state.dropped > 2 * kept {
                let drop = state.total - state.dropped - kept
                state.samples.removeFirst(drop * channels)
                state.dropped += drop
            }
            var done: [(CheckedContinuation<Double, any Error>, Double)] = []
            for (key, waiter) in state.waiters {
                if let rms = waiter.check(state) {
                    done.append((waiter.continuation, rms))
                    state.waiters[key] = nil
                }
            }
            return done
        }
        for (continuation, rms) in satisfied { continuation.resume(returning: rms) }
    }

    /// parec ended: every waiter fails (no more audio will come).
    private static func ended(_ status: Int32, _ stderr: String, _ shared: Shared) {
        let waiters = shared.state.withLock { state -> [Waiter] in
            state.ended = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.continuation.resume(throwing: TestSupportError("parec ended (status \(status)): \(stderr)"))
        }
    }

    /// Waits until `check` returns an RMS; throws after `timeout` with what was last seen.
    private func wait(timeout: Duration, _ what: String, check: @escaping @Sendable (State) -> Double?,
                      lastSeen: @escaping @Sendable (State) -> String) async throws -> Double {
        let shared = self.shared
        let key = shared.state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            let expired = shared.state.withLock { state -> (Waiter, String)? in
                guard let waiter = state.waiters.removeValue(forKey: key) else { return nil }
                return (waiter, waiter.lastSeen(state))
            }
            if let (waiter, seen) = expired {
                waiter.continuation.resume(throwing: TestSupportError("\(what): not within \(timeout); \(seen)"))
            }
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let result = shared.state.withLock { state -> Result<Double, any Error>? in
                if let rms = check(state) { return .success(rms) }
                if state.ended { return .failure(TestSupportError("\(what): parec has ended: \(process.standardError)")) }
                state.waiters[key] = Waiter(check: check, continuation: continuation, lastSeen: lastSeen)
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// Frames received so far (dropped ones included).
    public var framesCaptured: Int { shared.state.withLock { $0.total } }

    /// Waits until `frames` frames in all have arrived.
    public func waitForFrames(_ frames: Int, timeout: Duration = .seconds(10)) async throws {
        _ = try await wait(timeout: timeout, "\(frames) frames from \(device)",
                           check: { $0.total >= frames ? 0 : nil },
                           lastSeen: { "\($0.total) frames arrived" })
    }

    /// The RMS (0…1 of full scale) of the next `duration` of audio, counted from the first frame
    /// that arrives after the call.
    public func measure(_ duration: Duration, timeout: Duration = .seconds(10)) async throws -> Double {
        let start = framesCaptured
        let end = start + Self.frames(in: duration)
        return try await wait(timeout: timeout, "\(duration) of audio from \(device)",
                              check: { $0.rms(frames: start..<end) },
                              lastSeen: { "\($0.total - start) frames arrived" })
    }

    /// Waits until the RMS of the last `window` of audio satisfies `condition`, counting only
    /// audio that arrived after the call (so a state before the change being waited for never
    /// answers); returns that RMS. Throws after `timeout`, naming the last RMS seen.
    public func waitForLoudness(window: Duration = .milliseconds(100), timeout: Duration = .seconds(10),
                                _ condition: @escaping @Sendable (Double) -> Bool) async throws -> Double {
        let start = framesCaptured
        let width = Self.frames(in: window)
        return try await wait(timeout: timeout, "a level that satisfies the condition on \(device)",
                              check: { state in
                                  guard state.total - width >= start,
                                        let rms = state.rms(frames: (state.total - width)..<state.total),
                                        condition(rms) else { return nil }
                                  return rms
                              },
                              lastSeen: { state in
                                  let rms = state.total - width >= start ? state.rms(frames: (state.total - width)..<state.total) : nil
                                  return "last RMS over \(window): " + (rms.map { String(format: "%.5f", $0) } ?? "none yet")
                              })
    }

    /// How many frames `duration` of audio holds.
    public static func frames(in duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * sampleRate + Int(Double(attoseconds) / 1e18 * Double(sampleRate))
    }

    /// The stream's source-output index, once the server lists it.
    public func index(timeout: Duration = .seconds(10)) async throws -> Int {
        try await TestStream.index(of: id, in: "source-outputs", on: server, process: process, timeout: timeout)
    }

    public var isRunning: Bool { process.isRunning }
    /// What parec wrote on standard error.
    public var log: String { process.standardError }

    /// Ends the recording (SIGKILL). Idempotent.
    public func stop() {
        process.stop()
    }

    deinit {
        stop()
    }
}
