import Posix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where the player reports to a person: messages (skipped files, notices) and the status line,
/// on standard error so standard output stays free. On a terminal the status line is redrawn in
/// place; elsewhere each change is one plain line (journald, pipes, tests).
///
/// Messages and status lines carry file names and tags: both pass through `TerminalText` here, the
/// one way out to the person, so no escape sequence or newline from a file reaches the terminal
/// or forges a log line.
public final class PlayerLog: Sendable {
    private let status: StatusLine
    private let lastStatus = Mutex<String?>(nil)

    public init(status: StatusLine = StatusLine(fileDescriptor: 2)) {
        self.status = status
    }

    /// A message on its own line (it does not disturb the status line on a terminal).
    public func message(_ text: String) {
        let text = TerminalText.sanitized(text)
        emit((status.isTerminal && lastStatus.withLock({ $0 }) != nil ? "\r\u{1B}[K" : "") + "mprisd play: " + text + "\n")
        if status.isTerminal, let line = lastStatus.withLock({ $0 }) { emit(status.rendering(line)) }
    }

    /// The status line. On a terminal it is redrawn whenever it changes; elsewhere only when
    /// `significant` (state or track changed), so a log gets no line per second.
    public func status(_ line: String, significant: Bool) {
        let line = TerminalText.sanitized(line)
        let changed = lastStatus.withLock { last -> Bool in
            defer { last = line }
            return last != line
        }
        guard changed, status.isTerminal || significant else { return }
        emit(status.rendering(line))
    }

    /// Ends the status line (before exiting).
    public func finish() {
        if status.isTerminal, lastStatus.withLock({ $0 }) != nil { emit("\n") }
    }

    private func emit(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}
