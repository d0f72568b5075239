#if canImport(Glibc)
import Glibc
#endif
import Posix


/// The daemon's log: one line per event on stderr. Under systemd (`JOURNAL_STREAM` set) each line
/// starts with its syslog priority (`<6>` info, `<4>` warning, `<7>` debug), which journald turns
/// into the entry's level; on a terminal the lines are plain. `debug` lines appear only with
/// `--verbose`. A single `write(2)` per line keeps lines from different threads whole.
///
/// Messages quote what other programs say (session names, players' properties and errors), so
/// each is sanitized and capped (`TerminalText`): one message is always exactly one line of bounded
/// length, free of terminal escape sequences.
final class DaemonLog: Sendable {
    enum Level: Int {
        case warning = 4, info = 6, debug = 7
    }

    let verbose: Bool
    private let journal: Bool

    init(verbose: Bool) {
        self.verbose = verbose
        journal = getenv("JOURNAL_STREAM") != nil
    }

    func info(_ message: String) { write(.info, message) }
    func warning(_ message: String) { write(.warning, message) }
    func debug(_ message: @autoclosure () -> String) {
        if verbose { write(.debug, message()) }
    }

    private func write(_ level: Level, _ message: String) {
        let prefix = journal ? "<\(level.rawValue)>" : (level == .warning ? "warning: " : "")
        var bytes = Array((prefix + TerminalText.sanitized(message, maxLength: TerminalText.logLineLength) + "\n").utf8)
        bytes.withUnsafeMutableBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
