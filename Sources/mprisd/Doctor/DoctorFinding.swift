import FoundationEssentials

/// One thing `mprisd doctor` looked at: what it found, and — where something stands between the
/// user and what the daemon promises — the command that fixes it.
struct DoctorFinding: Sendable, Equatable, Encodable {
    enum Level: String, Sendable, Encodable {
        /// As it should be.
        case ok
        /// Worth knowing, not in the way (no bluetoothd on a machine without Bluetooth).
        case note
        /// In the way: `mprisd doctor` exits 1 while one is found.
        case problem
    }

    /// A stable name for scripts (`daemon`, `autostart`, `audio-server`, …).
    let check: String
    let level: Level
    /// What was found, in a sentence.
    let summary: String
    /// The command (or step) that fixes it; nil where there is none to give.
    let fix: String?

    init(_ check: String, _ level: Level, _ summary: String, fix: String? = nil) {
        self.check = check
        self.level = level
        self.summary = summary
        self.fix = fix
    }
}

/// Everything `mprisd doctor` found, in the order it looked.
struct DoctorReport: Sendable, Encodable {
    var findings: [DoctorFinding] = []

    var problems: [DoctorFinding] { findings.filter { $0.level == .problem } }

    mutating func add(_ finding: DoctorFinding) {
        findings.append(finding)
    }

    /// The stable JSON document of `--json`: `{"problems": N, "findings": [...]}`.
    func json() -> String {
        struct Document: Encodable {
            let problems: Int
            let findings: [DoctorFinding]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(Document(problems: problems.count, findings: findings)) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
