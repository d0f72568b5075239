import Posix

/// The apps without our API as a table for people (`mprisd apps`): what each app was taken for,
/// why, and what its implicit session does now — so a wrong guess is seen and a rule can fix it.
///
/// ```
/// Apps
///   APP               BINARY  PID   ROLE   CLASS   WHY                           SESSION  STATE
///   ZOOM VoiceEngine  zoom    4242  -      call    name table: ZOOM VoiceEngine  7        active
///   paplay            paplay  4300  music  media   role: music                   8        interrupted by 7
///   Chromium          chrome  -     -      mixing  default                       -        gone
/// ```
///
/// Present apps come first, then the ones whose streams are gone (`STATE` says `gone`), each
/// group in the daemon's order. A `FLATPAK` column appears when an app runs in one. Every name
/// was chosen by the app (or whoever packaged it): control characters escaped and cut as in the
/// `Streams` table (`PolicyStatus.shown`).
extension PolicyStatus {
    /// The apps, present ones first, each group in the daemon's order; empty when the daemon
    /// reports none (or is older than issue 15).
    public var appsPresentFirst: [App] {
        let apps = apps ?? []
        return apps.filter(\.present) + apps.filter { !$0.present }
    }

    /// The `Apps` table, or `Apps  none`.
    public func appsSection(colour: Bool) -> [String] {
        let apps = appsPresentFirst
        let flatpak = apps.contains { $0.flatpak?.isEmpty == false }
        var columns = ["APP", "BINARY", "PID", "ROLE", "CLASS", "WHY", "SESSION", "STATE"]
        if flatpak { columns.insert("FLATPAK", at: 2) }
        return section("Apps", columns: columns, rows: apps.map { $0.row(flatpak: flatpak) }, colour: colour)
    }
}

extension PolicyStatus.App {
    /// The class, or for a rule's own category its configuration (`playAndRecord/voiceChat`).
    public var shownClass: String {
        guard appClass == "custom", let configuration, !configuration.isEmpty else { return appClass }
        return configuration
    }

    /// What its session does now, `gone` once its streams are.
    public var shownState: String { present ? state : "gone" }

    fileprivate func row(flatpak: Bool) -> [TextTable.Cell] {
        typealias Length = PolicyStatus.ShownLength
        let stateColour: TextTable.Colour = switch shownState {
        case "active": .green
        case "inactive", "gone": .none
        default: .yellow  // interrupted, ducked, muted, silenced, waiting: held back by the policy
        }
        var cells = [
            TextTable.Cell(PolicyStatus.shown(application, Length.application)),
            TextTable.Cell(PolicyStatus.shown(binary, Length.application)),
            TextTable.Cell(pid.map(String.init) ?? "-"),
            TextTable.Cell(PolicyStatus.shown(role, Length.role)),
            TextTable.Cell(PolicyStatus.shown(shownClass, Length.role)),
            TextTable.Cell(PolicyStatus.shown(reason, Length.action)),
            TextTable.Cell(session.map(String.init) ?? "-"),
            TextTable.Cell(PolicyStatus.shown(shownState, Length.action), stateColour),
        ]
        if flatpak { cells.insert(TextTable.Cell(PolicyStatus.shown(self.flatpak, Length.application)), at: 2) }
        return cells
    }
}
