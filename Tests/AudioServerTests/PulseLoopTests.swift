@testable import AudioServer
import CPulse
import Foundation
import Glibc
import Posix
import Synchronization
import TestSupport
import XCTest

/// The loop's `pa_mainloop_api`, called the way libpulse calls it: time events on both clocks
/// (their `timeval` handed back as given), restart and free, defer events, io events.
final class PulseLoopTests: XCTestCase {
    /// What the C callbacks record (their userdata).
    final class Record: @unchecked Sendable {  // invariant: written on the loop's thread, read under `lock`
        let lock = NSLock()
        var events: [String] = []
        var timevals: [timeval] = []

        func add(_ event: String) { lock.withLock { events.append(event) } }
        var all: [String] { lock.withLock { events } }
    }

    private func onLoop(_ loop: PulseLoop, _ work: @escaping @Sendable (UnsafeMutablePointer<pa_mainloop_api>) -> Void) {
        let api = UncheckedAPI(loop.core.api)
        loop.post { work(api.pointer) }
    }

    /// Returns once the loop has finished the round it is in: each round fires every timer due.
    private func drain(_ loop: PulseLoop) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.post { continuation.resume() }
        }
    }

    func testTimeEventsOnBothClocksFireInOrderWithTheirTimevals() async throws {
        let loop = try PulseLoop()
        try loop.start()
        defer { loop.stop() }
        let record = Record()
        let userdata = UncheckedRaw(Unmanaged.passUnretained(record).toOpaque())
        let callback: pa_time_event_cb_t = { _, _, tv, userdata in
            let record = Unmanaged<Record>.fromOpaque(userdata!).takeUnretainedValue()
            record.lock.withLock {
                record.timevals.append(tv!.pointee)
                record.events.append("time \(tv!.pointee.tv_usec & Int(cpulse_timeval_rtclock) != 0 ? "rt" : "wall")")
            }
        }
        onLoop(loop) { api in
            // rtclock: CLOCK_MONOTONIC now + 150 ms, flagged.
            let rtNow = MonotonicClock.nanoseconds() / 1000 + 150_000
            var rt = timeval(tv_sec: Int(rtNow / 1_000_000), tv_usec: Int(rtNow % 1_000_000) | Int(cpulse_timeval_rtclock))
            // wall clock: now + 50 ms.
            var wall = timeval()
            gettimeofday(&wall, nil)
            wall.tv_usec += 50_000
            if wall.tv_usec >= 1_000_000 { wall.tv_sec += 1; wall.tv_usec -= 1_000_000 }
            _ = api.pointee.time_new(api, &rt, callback, userdata.pointer)
            _ = api.pointee.time_new(api, &wall, callback, userdata.pointer)
            // A disabled timer (no deadline) and one freed before it is due never fire.
            _ = api.pointee.time_new(api, nil, callback, userdata.pointer)
            let freed = api.pointee.time_new(api, &wall, callback, userdata.pointer)
            api.pointee.time_free(freed)
        }
        let fired = await eventually(timeout: .seconds(10)) { record.all.count >= 2 }
        XCTAssertTrue(fired)
        // The freed timer was due with the wall one, 100 ms before the rt one fired: had it (or
        // the disabled one) fired, it would have by the end of this round.
        await drain(loop)
        XCTAssertEqual(record.all, ["time wall", "time rt"])
        XCTAssertEqual(record.lock.withLock { record.timevals.last?.tv_usec ?? 0 } & Int(cpulse_timeval_rtclock),
                       Int(cpulse_timeval_rtclock), "the timeval is handed back with its flag")
    }

    func testDeferEventsRunUntilDisabledAndIOEventsSeeTheirDescriptor() async throws {
        let loop = try PulseLoop()
        try loop.start()
        defer { loop.stop() }
        let record = Record()
        let userdata = UncheckedRaw(Unmanaged.passUnretained(record).toOpaque())
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let readEnd = fds[0]
        onLoop(loop) { api in
            // A defer event that disables itself after three runs.
            _ = api.pointee.defer_new(api, { api, event, userdata in
                let record = Unmanaged<Record>.fromOpaque(userdata!).takeUnretainedValue()
                record.add("defer")
                if record.all.filter({ $0 == "defer" }).count == 3 { api!.pointee.defer_enable(event, 0) }
            }, userdata.pointer)
            let io = api.pointee.io_new(api, readEnd, PA_IO_EVENT_INPUT, { api, event, fd, flags, userdata in
                let record = Unmanaged<Record>.fromOpaque(userdata!).takeUnretainedValue()
                var byte: UInt8 = 0
                _ = read(fd, &byte, 1)
                record.add("io \(byte) \(flags.rawValue & PA_IO_EVENT_INPUT.rawValue != 0)")
            }, userdata.pointer)
            api.pointee.io_set_destroy(io, { _, _, userdata in
                Unmanaged<Record>.fromOpaque(userdata!).takeUnretainedValue().add("io destroyed")
            })
        }
        var byte: UInt8 = 7
        XCTAssertEqual(write(fds[1], &byte, 1), 1)
        let seen = await eventually(timeout: .seconds(10)) { record.all.contains("io 7 true") }
        XCTAssertTrue(seen, "\(record.all)")
        XCTAssertEqual(record.all.filter { $0 == "defer" }.count, 3)
        loop.stop()
        XCTAssertEqual(record.all.last, "io destroyed", "events still alive are freed when the loop ends")
    }
}

/// Pointers handed to the loop's thread in tests.
private struct UncheckedAPI: @unchecked Sendable {  // invariant: dereferenced only on the loop's thread
    let pointer: UnsafeMutablePointer<pa_mainloop_api>
    init(_ pointer: UnsafeMutablePointer<pa_mainloop_api>) { self.pointer = pointer }
}

private struct UncheckedRaw: @unchecked Sendable {  // invariant: points at a Record that outlives the loop
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}
