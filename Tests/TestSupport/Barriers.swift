import DBus
import Foundation

// Barriers: waits that end when something has provably been processed, for negative checks
// ("no wrong Play was sent") that would otherwise wait a while and hope.

extension Connection {
    /// A round trip to `peer` (`org.freedesktop.DBus.Peer.Ping`; by default the bus itself).
    ///
    /// When it returns: this connection's I/O thread has finished what it was doing when the
    /// call was made and sent what that queued (the call is queued behind it); `peer` has
    /// received everything this connection sent it before (the bus keeps one sender's messages
    /// to one receiver in order) — and, if `peer` answers `Ping` in order with its other calls
    /// and signals, handled them; and this connection has received what `peer` sent it before
    /// the reply. To the bus: every name request and match rule sent before has taken effect.
    ///
    /// (GDBus answers `Peer` on its worker thread, ahead of the method calls its main loop has
    /// yet to run: for a GDBus player such as mpv-mpris, call one of its own methods or
    /// properties instead, as `MPRISTestPlayer.playbackStatus(through:)` does.)
    public func roundTrip(to peer: String = "org.freedesktop.DBus") async throws {
        let path = peer == "org.freedesktop.DBus" ? try ObjectPath("/org/freedesktop/DBus") : .root
        _ = try await call(destination: peer, path: path, interface: "org.freedesktop.DBus.Peer", member: "Ping",
                           timeout: .seconds(10))
    }

    /// Waits until what this connection was told to do for `peer` has been done, a call and its
    /// answer at a time: the I/O thread is drained (its queued calls sent), `peer` has handled
    /// them and its answers have been handled here, and the calls those answers made are sent,
    /// `rounds` times over. For components that answer in steps (read a volume, then set it).
    public func settle(with peer: String, rounds: Int = 1) async throws {
        for _ in 0..<rounds {
            try await roundTrip()
            try await roundTrip(to: peer)
        }
        try await roundTrip()
    }
}

extension MPRISTestPlayer {
    /// `PlaybackStatus` asked through `connection` once its I/O thread has sent what it had
    /// queued: the answer comes after the player handled every call `connection` sent it before
    /// (mpv-mpris runs method calls and property reads in order on its main loop). The barrier
    /// for "a wrong Play/Pause from the component on `connection` would show by now".
    ///
    /// `rounds`: how many call-and-answer steps the component may take before the command — a
    /// faithful Pause (`MPRISRemote.pauseIfPlaying`) reads the status first, then pauses: 2.
    public func playbackStatus(through connection: Connection, rounds: Int = 2) async throws -> String {
        var status: DBusValue?
        for _ in 0..<max(rounds, 1) {
            try await connection.roundTrip()
            status = try await property("PlaybackStatus", through: connection)
        }
        guard case .string(let text)? = status else {
            throw TestSupportError("PlaybackStatus of \(busName) is not a string")
        }
        return text
    }
}

/// The threads of this process as the kernel shows them (`/proc/self/task`), for measuring that a
/// thread stays asleep.
public enum ProcessThreads {
    /// The kernel ids of the threads whose name (`comm`) starts with `prefix`.
    public static func named(_ prefix: String) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.hasPrefix(prefix) ? Int32(task) : nil
        }.sorted()
    }

    /// Voluntary plus involuntary context switches of thread `tid`.
    public static func contextSwitches(_ tid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/task/\(tid)/status", encoding: .utf8)
        return status.split(separator: "\n").reduce(0) { total, line in
            guard line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:"),
                  let value = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
            else { return total }
            return total + value
        }
    }

    /// Whether thread `tid` is asleep (state S) inside poll(2)/ppoll(2): done with whatever
    /// woke it, until its descriptors or timeout wake it again.
    public static func isAsleepInPoll(_ tid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards),
              stat[afterName.upperBound...].hasPrefix("S"),
              let syscall = try? String(contentsOfFile: "/proc/self/task/\(tid)/syscall", encoding: .utf8),
              let number = syscall.split(separator: " ").first.flatMap({ Int($0) }) else { return false }
        return pollSyscalls.contains(number)
    }

    #if arch(x86_64)
    private static let pollSyscalls: Set<Int> = [7, 271]  // poll, ppoll
    #elseif arch(arm64)
    private static let pollSyscalls: Set<Int> = [73]  // ppoll
    #else
    private static let pollSyscalls: Set<Int> = []
    #endif

    /// Waits until every thread of `tids` is asleep in poll (see `isAsleepInPoll`).
    public static func waitUntilAsleepInPoll(_ tids: [Int32], timeout: Duration = .seconds(5)) async -> Bool {
        await eventually(timeout: timeout) { tids.allSatisfy(isAsleepInPoll) }
    }
}
