import Posix

/// The bridges from the completion-based operations (the one implementation of each) to the
/// async and blocking forms, so that every form runs the same steps on the I/O thread.
extension Connection {
    typealias Completion<Value> = @Sendable (Result<Value, DBusError>) -> Void

    /// Suspends until `start`'s completion runs, then returns or throws its result.
    func awaiting<Value: Sendable>(_ start: (@escaping Completion<Value>) -> Void) async throws(DBusError) -> Value {
        let handOver = AwaitedResult<Value>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            start { result in
                handOver.store(result)
                continuation.resume()
            }
        }
        return try handOver.take().get()
    }

    /// Blocks the calling thread until `start`'s completion runs. Never on the connection's own
    /// I/O thread, whose work it would wait for.
    func waiting<Value: Sendable>(_ start: (@escaping Completion<Value>) -> Void) throws(DBusError) -> Value {
        guard !core.loop.isOnLoopThread else {
            throw DBusError.failed("waiting on the connection's own thread would never return")
        }
        let latch = Latch<Result<Value, DBusError>>()
        start { latch.open(with: $0) }
        return try latch.wait().get()
    }

    /// Calls a method of the bus itself; `completion` gets the reply's arguments.
    func callBus(_ member: String, _ body: [DBusValue] = [], timeout: Duration? = nil,
                 completion: @escaping Completion<[DBusValue]>) {
        call(.methodCall(destination: BusDaemon.name, path: BusDaemon.path, interface: BusDaemon.interface,
                         member: member, body: body), timeout: timeout) { reply in
            completion(reply.map(\.body))
        }
    }
}
