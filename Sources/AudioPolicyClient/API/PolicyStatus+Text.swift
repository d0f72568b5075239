import Posix

/// `mprisd status` for people: the daemon's state as a few aligned lines that read at a glance.
///
/// ```
/// Silent mode  off
/// Lock         unlocked
/// Volume       80%
/// Route        USB DAC (lineOut) [override]
/// Available    Speaker (speaker), USB DAC (lineOut) [override]
///
/// Sessions
///   ID  OWNER  NAME   CATEGORY       MODE       STATE
///   3   :1.42  sleep  playAndRecord  voiceChat  active
///
/// Players
///   BUS NAME                    STATUS  FLAGS
///   org.mpris.MediaPlayer2.mpv  Paused  paused-by-policy
/// Active player: org.mpris.MediaPlayer2.mpv (paused by session 3 (sleep) at 14:02:11)
/// ```
///
/// A daemon that follows an audio server adds an `Audio server` line to the header and the
/// `Streams` and `Devices` tables after the players (PolicyStatus+AudioServerText.swift).
///
/// Empty lists say `none`; the text ends in a newline. Colour (ANSI) only when asked (the caller
/// decides: standard output is a terminal and `NO_COLOR` is not set, say): green for what plays,
/// yellow for what the policy holds back (interrupted, ducked, paused by policy) and for silent
/// mode and lock being on, bold headings. The document for programs is `json()`.
extension PolicyStatus {
    /// The status as text for a terminal; ANSI colour codes only when `colour` is true.
    public func text(colour: Bool) -> String {
        var lines = TextTable(rows: headerRows).lines(colour: colour)
        lines.append("")
        lines += section("Sessions", columns: ["ID", "OWNER", "NAME", "CATEGORY", "MODE", "STATE"],
                         rows: sessions.map(\.row), colour: colour)
        lines.append("")
        // Where each player is audible, once a server says so (its sinks, or `-`).
        let audible = players.contains { $0.audibleOn != nil }
        lines += section("Players", columns: ["BUS NAME", "STATUS", "FLAGS"] + (audible ? ["AUDIBLE ON"] : []),
                         rows: players.map { $0.row + (audible ? [$0.audibleCell] : []) }, colour: colour)
        lines.append(activePlayerLine(colour: colour))
        lines += audioServerSections(colour: colour)
        if let apps {
            // The implicit sessions of the apps playing or recording now (`mprisd apps` also
            // lists those gone, and the rules).
            var now = self
            now.apps = apps.filter(\.present)
            lines.append("")
            lines += now.appsSection(colour: colour)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Header

    private var headerRows: [[TextTable.Cell]] {
        [
            [TextTable.Cell("Silent mode"), silentMode ? TextTable.Cell("on", .yellow) : TextTable.Cell("off")],
            [TextTable.Cell("Lock"), locked ? TextTable.Cell("locked", .yellow) : TextTable.Cell("unlocked")],
            [TextTable.Cell("Volume"), TextTable.Cell(Self.percent(outputVolume))],
            [TextTable.Cell("Route"), TextTable.Cell(routeText)],
            [TextTable.Cell("Available"), TextTable.Cell(availableText)],
        ] + audioServerRows + journalRows
    }

    /// A journal that cannot be written, in yellow: nothing is paused, ducked or muted till then.
    private var journalRows: [[TextTable.Cell]] {
        guard let journalProblem else { return [] }
        return [[TextTable.Cell("Journal"),
                 TextTable.Cell("cannot be written (\(journalProblem)): nothing is paused, ducked or muted until it can", .yellow)]]
    }

    /// `0.8` → `80%`; unknown (nil, not a number) → `unknown`.
    static func percent(_ volume: Double?) -> String {
        guard let volume, volume.isFinite else { return "unknown" }
        return "\(Int((min(max(volume, 0), 1) * 100).rounded()))%"
    }

    /// The current outputs, with whether the user picked them.
    private var routeText: String {
        let outputs = route.outputs.isEmpty ? "none" : route.outputs.map(describe).joined(separator: ", ")
        guard let override = route.override else { return outputs + " [automatic]" }
        if route.outputs.contains(where: { $0.id == override }) { return outputs }
        return outputs + " [override \(override) not available]"
    }

    private var availableText: String {
        route.available.isEmpty ? "none" : route.available.map(describe).joined(separator: ", ")
    }

    /// `Name (type)`, and `[override]` for the user's pick.
    private func describe(_ port: Port) -> String {
        "\(port.name) (\(port.type))" + (port.id == route.override ? " [override]" : "")
    }

    // MARK: Tables

    func section(_ title: String, columns: [String], rows: [[TextTable.Cell]], colour: Bool) -> [String] {
        guard !rows.isEmpty else { return ["\(title)  none"] }
        let heading = TextTable.paint(TextTable.Cell(title, .bold), colour: colour)
        let table = TextTable(rows: [columns.map { TextTable.Cell($0, .bold) }] + rows, indent: 2)
        return [heading] + table.lines(colour: colour)
    }
}

extension PolicyStatus.Session {
    /// One word: what the user would notice first (interrupted over ducked over playing).
    var state: String {
        if interrupted { return "interrupted" }
        if ducked { return "ducked" }
        return active ? "active" : "inactive"
    }

    fileprivate var row: [TextTable.Cell] {
        let colour: TextTable.Colour = switch state {
        case "active": .green
        case "interrupted", "ducked": .yellow
        default: .none
        }
        return [TextTable.Cell(String(id)), TextTable.Cell(owner), TextTable.Cell(name), TextTable.Cell(category),
                TextTable.Cell(mode), TextTable.Cell(state, colour)]
    }
}

extension PolicyStatus.Player {
    /// `spoken-audio`, `paused-by-policy`, `ducked`, any of them, or `-`.
    var flags: String {
        let flags = (mode == "spokenAudio" ? ["spoken-audio"] : []) + (pausedByPolicy ? ["paused-by-policy"] : [])
            + (ducked ? ["ducked"] : [])
        return flags.isEmpty ? "-" : flags.joined(separator: ",")
    }

    fileprivate var row: [TextTable.Cell] {
        [TextTable.Cell(busName), TextTable.Cell(status, status == "Playing" ? .green : .none),
         TextTable.Cell(flags, pausedByPolicy || ducked ? .yellow : .none)]
    }

    /// Each of its streams' sink and volume (`usb-dac 83%`, `usb-dac muted`), else the sinks it
    /// is audible on, or `-`.
    fileprivate var audibleCell: TextTable.Cell {
        if let streams, !streams.isEmpty {
            let placed = streams.map { stream in
                (stream.sink ?? "?") + " " + (stream.muted ? "muted" : PolicyStatus.streamPercent(stream.volume))
            }
            return TextTable.Cell(placed.joined(separator: ","))
        }
        return TextTable.Cell(audibleOn.map { $0.isEmpty ? "-" : $0.joined(separator: ",") } ?? "-")
    }
}
