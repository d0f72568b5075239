import AudioPolicyClient
import FoundationEssentials
import MPRISDirectory
#if canImport(Glibc)
import Glibc
#endif

/// The ranking as `mprisd players` shows it: every player, its rank and why.
extension PlayerRanking {
    /// Pinned first, then the ranked players, then those in no audio context, then the ignored
    /// ones — each with its reason.
    public func listing() -> PlayerListing {
        let active = active?.busName
        var rows: [PlayerListing.Player] = []
        var rank = 0
        func row(_ entry: Entry, ranked: Bool, reason: String, since: Date?, ignoredBy: String? = nil) {
            if ranked { rank += 1 }
            rows.append(PlayerListing.Player(busName: entry.busName, owner: entry.owner, status: entry.status,
                                             rank: ranked ? rank : nil, active: entry.busName == active,
                                             pinned: entry.busName == pinned, reason: reason,
                                             since: since?.timeIntervalSince1970, ignoredBy: ignoredBy,
                                             streamsGoneSince: (entry.streams.left ?? entry.streams.goneSince)?.timeIntervalSince1970,
                                             hasStreams: entry.streams.present))
        }
        if let pinned, let entry = entries[pinned] {
            row(entry, ranked: true, reason: "pinned by the user at \(Self.clock(pinnedAt))", since: pinnedAt)
        }
        for entry in ranked where entry.busName != pinned {
            row(entry, ranked: true, reason: Self.reason(entry), since: entry.since)
        }
        let others = entries.values.filter { $0.busName != pinned && !($0.inContext && ignore.rule(ignoring: $0.busName) == nil) }
            .sorted { $0.busName < $1.busName }
        for entry in others {
            if let rule = ignore.rule(ignoring: entry.busName) {
                let reason = PlayerIgnoreList.proxies.contains(rule) ? "ignored: a proxy of other players" : "ignored by rule '\(rule)'"
                row(entry, ranked: false, reason: reason, since: nil, ignoredBy: rule)
            } else {
                row(entry, ranked: false, reason: Self.reason(entry), since: entry.streams.left ?? entry.since)
            }
        }
        return PlayerListing(players: rows)
    }

    /// `playing since 14:02:11`, `paused by the user at …`, `stopped at …`, `never seen playing`,
    /// `its streams gone since …`.
    static func reason(_ entry: Entry) -> String {
        if !entry.inContext, let left = entry.streams.left, entry.status != "Stopped" {
            // A stream back while Paused does not bring it back: its next Playing does.
            if entry.streams.present == true {
                return "\(entry.status.lowercased()), its streams were gone since \(clock(left)): in no audio context until it plays"
            }
            return "\(entry.status.lowercased()), its streams gone since \(clock(left)): in no audio context"
        }
        switch (entry.status, entry.inContext) {
        case ("Playing", _): return "playing since \(clock(entry.since))"
        case ("Paused", true): return "paused by \(entry.pausedBy ?? "the user") at \(clock(entry.since))"
        case ("Paused", false): return "paused, never seen playing: in no audio context"
        default: return entry.activeOrder > 0 ? "stopped at \(clock(entry.since)): in no audio context"
            : "stopped, never seen playing: in no audio context"
        }
    }

    /// Local wall-clock time, `HH:MM:SS`.
    static func clock(_ date: Date?) -> String {
        guard let date else { return "?" }
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "?" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
