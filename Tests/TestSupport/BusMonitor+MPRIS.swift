/// What a monitor shows of MPRIS players: their `PlaybackStatus` announcements and the
/// comings and goings of their names, checked against the design's rule that leaving the audio
/// context announces `Stopped` before the name is released.
extension BusMonitor {
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// dbus-monitor rules for every `PropertiesChanged` and the owner changes of `name`.
    public static func mprisRules(name: String) -> [String] {
        ["type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'",
         "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"]
    }

    /// The releases of `name` seen so far: `NameOwnerChanged(name, owner, "")`.
    public func releases(of name: String) -> [Entry] {
        entries.filter { $0.isRelease(of: name) }
    }

    /// The `PlaybackStatus` values announced so far, in order.
    public var playbackStatuses: [String] { entries.compactMap(\.playbackStatus) }

    /// One line per release of `name` at which the owner's last announced `PlaybackStatus` was
    /// not `Stopped` (an exported player starts out stopped); empty when the rule held throughout.
    public func releasesWithoutStopped(of name: String) -> [String] {
        var lastStatus: [String: String] = [:]
        var releaseIndex = 0
        var violations: [String] = []
        for entry in entries {
            if let status = entry.playbackStatus, let sender = entry.field("sender") {
                lastStatus[sender] = status
            } else if entry.isRelease(of: name) {
                let owner = entry.strings[1]
                let status = lastStatus[owner] ?? "Stopped"
                if status != "Stopped" { violations.append("release \(releaseIndex) by \(owner) after \(status)") }
                releaseIndex += 1
            }
        }
        return violations
    }
}

extension BusMonitor.Entry {
    func isRelease(of name: String) -> Bool {
        let strings = self.strings
        return field("member") == "NameOwnerChanged" && strings.count == 3 && strings[0] == name && strings[2].isEmpty
    }

    /// The `PlaybackStatus` an MPRIS `PropertiesChanged` carries, if any.
    var playbackStatus: String? {
        let strings = self.strings
        guard field("member") == "PropertiesChanged", strings.first == BusMonitor.playerInterface,
              let index = strings.firstIndex(of: "PlaybackStatus"), index + 1 < strings.count else { return nil }
        return strings[index + 1]
    }
}
