import AudioServer
import Synchronization

/// Every stream's process and its ancestors (`ProcessAncestry`), read from `/proc` once per
/// stream, for everything in the daemon that gives streams to owners: the players' join
/// (`PlayerStreams`, for the arbiter and the status) and the stream policy's sessions
/// (`StreamPolicy.coveringSession`). One read per stream appearance, however many ask.
///
/// Keyed by the stream and its process: PipeWire reuses a stream's index, and an entry whose
/// pid differs from the stream's is read again. Entries of streams that went are forgotten when
/// the inventory changes (`follow`). Thread-safe; `/proc` is never read with the lock held.
public final class StreamProcessTrees: Sendable {
    /// Where the process files are: `/proc`, or a test's tree of `PID/stat` files.
    let root: String
    private let chains = Mutex<[StreamID: Entry]>([:])

    private struct Entry {
        var pid: Int32
        var chain: [Int32]
    }

    public init(root: String = "/proc") {
        self.root = root
    }

    /// `stream`'s process and its ancestors, nearest first; empty when it has no process (or
    /// the process is gone). Read on the first ask, kept while the stream lasts.
    func chain(of stream: AudioStream) -> [Int32] {
        guard let pid = stream.processID, pid > 1 else { return [] }
        if let known = chains.withLock({ $0[stream.id] }), known.pid == pid { return known.chain }
        let chain = ProcessAncestry.chain(from: pid, root: root)
        return chains.withLock { chains in
            // Another reader may have read it meanwhile: the first read is kept.
            if let known = chains[stream.id], known.pid == pid { return known.chain }
            chains[stream.id] = Entry(pid: pid, chain: chain)
            return chain
        }
    }

    /// Reads the trees of the streams new in `inventory` (while their processes are alive) and
    /// forgets those of the streams no longer in it.
    func follow(_ inventory: AudioInventory) {
        let unread = chains.withLock { chains -> [AudioStream] in
            chains = chains.filter { id, entry in inventory.streams[id]?.processID == entry.pid }
            return inventory.streams.values.filter { stream in
                guard let pid = stream.processID, pid > 1 else { return false }
                return chains[stream.id]?.pid != pid
            }
        }
        for stream in unread { _ = chain(of: stream) }
    }

    /// How many streams' trees are kept (for tests).
    var count: Int { chains.withLock { $0.count } }
}
