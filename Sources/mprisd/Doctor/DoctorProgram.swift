import DBus
import Posix

/// `mprisd doctor`: one screen of what stands between the user and what the daemon promises, each
/// with the command that fixes it; exit status 0 only when nothing is in the way (notes do not
/// count), 1 otherwise; `--json` for scripts.
enum DoctorProgram {
    static func run(json: Bool) -> Int32 {
        let report: DoctorReport
        if let session = try? Connection(bus: .session) {
            let system = try? Connection(bus: .system)
            defer {
                session.close()
                system?.close()
            }
            report = Doctor(session: session, system: system).examine()
        } else {
            var none = DoctorReport()
            none.add(DoctorFinding("session-bus", .problem, "no session bus: the daemon and the players live there",
                                   fix: "log in to a desktop session (or run the command under dbus-run-session)"))
            report = none
        }
        Output.out(json ? report.json() : text(report, colour: StatusProgram.wantsColour))
        return report.problems.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// The findings as an aligned table, problems with their fix on the line below, and a
    /// closing line that counts them.
    static func text(_ report: DoctorReport, colour: Bool) -> String {
        var table = TextTable(indent: 0)
        for finding in report.findings {
            let level: TextTable.Cell = switch finding.level {
            case .ok: TextTable.Cell("ok", .green)
            case .note: TextTable.Cell("note", .none)
            case .problem: TextTable.Cell("PROBLEM", .yellow)
            }
            table.rows.append([level, TextTable.Cell(finding.check), TextTable.Cell(finding.summary)])
            if let fix = finding.fix, finding.level != .ok {
                table.rows.append([TextTable.Cell(""), TextTable.Cell(""), TextTable.Cell("fix: \(fix)", .bold)])
            }
        }
        let count = report.problems.count
        let closing = count == 0 ? "nothing stands in the way" : "\(count) problem\(count == 1 ? "" : "s") in the way"
        return (table.lines(colour: colour) + [closing]).joined(separator: "\n") + "\n"
    }
}
