import DBus
import Foundation
import Synchronization
import TestSupport
import XCTest

/// A name owner watch reports owners in the order the bus announced them: the answer to its first
/// `GetNameOwner` never lands after a newer `NameOwnerChanged`, however late the task that asked
/// for the watch gets to run again.
final class OwnerWatchOrderTests: BusTestCase {
    private static let name = "org.mprisd.Churn"

    /// The watching task runs on an executor the test holds: before each of its steps the name
    /// changes hands, and the watcher's connection has routed that change. A watch that reported
    /// the first owner from the task itself would report one that is out of date by then.
    func testTheFirstOwnerNeverOverwritesANewerChange() throws {
        let watcher = try connect()
        let holder = try connect()
        let executor = HeldExecutor()
        let owners = Mutex<[String?]>([])
        let watch = Mutex<SignalSubscription?>(nil)
        let finished = Mutex(false)
        let name = Self.name
        Task(executorPreference: executor) {
            let subscription = try? await watcher.watchNameOwner(name) { owner in
                owners.withLock { $0.append(owner) }
            }
            watch.withLock { $0 = subscription }
            finished.withLock { $0 = true }
        }
        defer { watch.withLock { $0?.cancel() } }
        var held = false
        var steps = 0
        while !finished.withLock({ $0 }) {
            steps += 1
            guard steps < 50, let job = executor.next(timeout: .seconds(10)) else {
                return XCTFail("the watching task did not finish")
            }
            try held ? release(holder) : take(holder)
            held.toggle()
            try roundTrip(watcher)
            executor.run(job)
        }
        XCTAssertNotNil(watch.withLock { $0 })
        try roundTrip(watcher)
        let expected = held ? holder.uniqueName : nil
        XCTAssertEqual(owners.withLock { $0.last }, .some(expected), "owners reported: \(owners.withLock { $0 })")
    }

    private func take(_ connection: Connection) throws {
        XCTAssertEqual(try connection.requestNameAndWait(Self.name), .primaryOwner)
    }

    private func release(_ connection: Connection) throws {
        _ = try connection.callAndWait(busCall("ReleaseName", [.string(Self.name)]))
    }

    /// A call to the bus and its answer: the bus sent everything it had queued for `connection`
    /// before the answer, and the connection handles its messages in order, so every signal about
    /// an earlier change has been routed when this returns.
    private func roundTrip(_ connection: Connection) throws {
        _ = try connection.callAndWait(busCall("GetId"))
    }

    private func busCall(_ member: String, _ body: [DBusValue] = []) throws -> Message {
        .methodCall(destination: "org.freedesktop.DBus", path: try ObjectPath("/org/freedesktop/DBus"),
                    interface: "org.freedesktop.DBus", member: member, body: body)
    }
}

/// A task executor that runs nothing until the test hands it a job: the test decides what
/// happens between two steps of a task.
private final class HeldExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
        available.signal()
    }

    /// The next job the task enqueued, waiting up to `timeout` for one.
    func next(timeout: Duration) -> UnownedJob? {
        let seconds = Double(timeout.components.seconds)
        guard available.wait(timeout: .now() + seconds) == .success else { return nil }
        return jobs.withLock { $0.removeFirst() }
    }

    func run(_ job: UnownedJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}
