import FoundationEssentials

/// A process and its ancestors, read from `/proc/PID/stat` (the fourth field is the parent's
/// pid): a stream belongs to a session whose owner is the stream's process or one of its
/// ancestors (`mprisd run -- sh -c 'paplay …'`).
///
/// Read once per stream appearance, while the process is alive: a process that has gone cannot
/// be placed (its stream is gone too, or about to be).
enum ProcessAncestry {
    /// Where the walk stops: deeper trees are not worth following.
    static let maxDepth = 64

    /// `pid` and its ancestors, nearest first, up to (not including) pid 1 and 0; empty when
    /// `pid` does not exist (or is not a valid pid).
    static func chain(from pid: Int32, root: String = "/proc") -> [Int32] {
        var chain: [Int32] = []
        var current = pid
        while current > 1, chain.count < maxDepth, !chain.contains(current) {
            guard let parent = parent(of: current, root: root) else { break }
            chain.append(current)
            current = parent
        }
        return chain
    }

    /// The parent of `pid` (`/proc/PID/stat`, field 4); nil when it cannot be read.
    static func parent(of pid: Int32, root: String = "/proc") -> Int32? {
        guard let data = FileManager.default.contents(atPath: "\(root)/\(pid)/stat"),
              let text = String(data: data, encoding: .utf8) else { return nil }
        return parent(inStat: text)
    }

    /// Field 4 of a `stat` line. The command name (field 2) is in parentheses and may itself
    /// contain spaces and parentheses: the fields after it start after the LAST `)`.
    static func parent(inStat text: String) -> Int32? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let rest = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard rest.count >= 2, let parent = Int32(rest[1]), parent >= 0 else { return nil }
        return parent
    }
}
