import Foundation
import Glibc

/// The processes of a process group, read from `/proc`: what is left of a program and whatever it
/// started after the group was killed.
enum ProcessGroup {
    /// Process ids of the group's members that still run (zombies excluded: a zombie has closed
    /// every descriptor, its sockets included).
    static func liveMembers(_ group: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "pid (comm)": state, ppid, pgrp, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", fields[0] != "X", Int32(fields[2]) == group else { return nil }
            return pid
        }
    }

    /// Waits (checking every few milliseconds: the kernel announces no such thing to a
    /// non-parent) until no member of `group` runs; returns whether that happened within `timeout`.
    @discardableResult
    static func waitUntilGone(_ group: Int32, timeout: Duration = .seconds(5)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !liveMembers(group).isEmpty {
            guard ContinuousClock.now < deadline else { return false }
            usleep(2_000)
        }
        return true
    }
}
