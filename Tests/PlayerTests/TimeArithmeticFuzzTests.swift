import AudioDevices
import Player
import RemoteControl
import TestSupport
import XCTest

/// The frame, rate, length and position arithmetic of the player fed extreme and random values
/// (0, 1, negative, `Int.max`, `Int64.max` — what a lying file header or libsndfile's "unknown
/// length" produce): nothing traps, and every result is sane (non-negative, monotonic where it
/// must be, round trips within a frame).
final class TimeArithmeticFuzzTests: XCTestCase {
    private static let extremes = [0, 1, -1, 2, 44_100, 48_000, 1_536_000, Int(Int32.max), Int.max / 2,
                                   Int.max - 1, Int.max, Int.min, Int.min + 1, -48_000]

    private var random = SeededRNG(seed: 0x6D70_7269_7364_0012)

    /// An extreme value half of the time, else a random one of random magnitude.
    private func value() -> Int {
        if random.next() % 2 == 0 { return Self.extremes[Int(random.next() % UInt64(Self.extremes.count))] }
        let bits = random.next() % 64
        let magnitude = Int(truncatingIfNeeded: (random.next() >> (63 - bits)) >> 1)
        return random.next() % 4 == 0 ? -magnitude : magnitude
    }

    func testFrameAndTimeConversionsNeverTrapAndStaySane() {
        let started = ContinuousClock.now
        for _ in 0..<20_000 {
            let frames = value(), rate = value(), offset = value()
            let duration = MediaTime.duration(frames: frames, sampleRate: rate)
            XCTAssertGreaterThanOrEqual(duration, .zero)
            if frames <= 0 || rate <= 0 { XCTAssertEqual(duration, .zero) }

            let length = MediaTime.knownLength(frames: frames, sampleRate: rate)
            if let length {
                XCTAssertGreaterThan(length, .zero)
                XCTAssertLessThanOrEqual(length, MediaTime.longestPlausibleLength)
            }
            let info = AudioFileInfo(sampleRate: rate, channels: 2, frames: frames, isSeekable: true,
                                     formatName: "", encodingName: "")
            XCTAssertEqual(info.length, length)

            let back = MediaTime.frame(at: duration, sampleRate: rate)
            if frames > 0, rate > 0 {
                // Nanosecond rounding loses at most one frame at rates up to 10⁹ Hz.
                XCTAssertLessThanOrEqual(back, frames)
                if rate <= 1_000_000_000 { XCTAssertGreaterThanOrEqual(back, frames - 1, "\(frames) frames at \(rate) Hz") }
            } else {
                XCTAssertEqual(back, 0)
            }

            let position = Duration.seconds(Int64(truncatingIfNeeded: value())) + .nanoseconds(Int64(truncatingIfNeeded: value()))
            XCTAssertGreaterThanOrEqual(MediaTime.frame(at: position, sampleRate: rate), 0)
            _ = MediaTime.frame(frames, advancedBy: offset)
            XCTAssertGreaterThanOrEqual(MediaTime.wholeSeconds(frames: frames, sampleRate: rate), 0)

            let microseconds = duration.microseconds
            XCTAssertGreaterThanOrEqual(microseconds, 0)
            _ = position.microseconds

            let seconds = Double(bitPattern: random.next())
            for shown in [seconds, MediaTime.seconds(duration), Double(frames), -.infinity, .infinity, .nan] {
                XCTAssertFalse(StatusLine.clock(shown).isEmpty)
            }
            _ = StatusLine.format(state: "Playing", title: "t", artist: nil, elapsed: seconds,
                                  duration: length.map(MediaTime.seconds))

            var now = NowPlayingInfo(item: NowPlayingItem(id: "x", duration: length), playbackState: .playing,
                                     elapsed: duration, at: MonotonicInstant(nanoseconds: Int64(truncatingIfNeeded: value())),
                                     rate: Double(bitPattern: random.next()))
            now.setElapsed(position, at: MonotonicInstant(nanoseconds: Int64(truncatingIfNeeded: value())))
            let reported = now.position(at: MonotonicInstant(nanoseconds: Int64(truncatingIfNeeded: value())))
            XCTAssertGreaterThanOrEqual(reported, .zero)
            if let length { XCTAssertLessThanOrEqual(reported, length) }
        }
        let elapsed = ContinuousClock.now - started
        XCTAssertLessThan(elapsed, .seconds(2), "the fuzz pass stays fast")
    }

    func testUnknownLengthSentinelsAreUnknown() {
        for frames in [Int(Int64.max), Int.max - 1, Int(Int64.max) / 2] {
            XCTAssertNil(MediaTime.knownLength(frames: frames, sampleRate: 48_000))
        }
        // A real 60-hour file at 48 kHz (the plain product overflows from ~53 h) is known.
        let sixtyHours = 60 * 3600 * 48_000
        XCTAssertEqual(MediaTime.knownLength(frames: sixtyHours, sampleRate: 48_000), .seconds(60 * 3600))
        XCTAssertEqual(MediaTime.frame(at: .seconds(60 * 3600), sampleRate: 48_000), sixtyHours)
        XCTAssertEqual(MediaTime.duration(frames: 48_001, sampleRate: 48_000), .seconds(1) + .nanoseconds(20_833))
        XCTAssertEqual(StatusLine.clock(Double(Int.max) * 4), StatusLine.clock(Double(Int.max) * 8))
    }
}
