import Synchronization

/// The lines a component under test logged, from whichever thread it logs on: pass `append` as
/// its log closure, then ask what it said.
public final class LogRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    public func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    /// Every line so far.
    public var all: [String] { lines.withLock { $0 } }

    public var count: Int { lines.withLock { $0.count } }

    public func contains(where matching: (String) -> Bool) -> Bool {
        lines.withLock { $0.contains(where: matching) }
    }

    public func count(where matching: (String) -> Bool) -> Int {
        lines.withLock { $0.filter(matching).count }
    }

    /// The lines from number `start` on.
    public func since(_ start: Int) -> [String] {
        lines.withLock { Array($0.dropFirst(start)) }
    }
}
