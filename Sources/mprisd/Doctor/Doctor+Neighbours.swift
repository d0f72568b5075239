import AudioPolicyDaemon
import DBus

/// What competes with the daemon or stands beside it: mpris-proxy, the system's services
/// (logind, bluetoothd) and the MPRIS players themselves.
extension Doctor {
    /// mpris-proxy registers every player with BlueZ beside the daemon's one active player, so
    /// a headset's buttons may reach another player than the active one.
    func checkMPRISProxy(_ report: inout DoctorReport) {
        let running = HeadsetPlayer.mprisProxyProcesses()
        let unit = hasSystemd ? unitFileState("mpris-proxy.service") : nil
        let enabled = unit.map { $0.hasPrefix("enabled") || $0 == "linked" || $0 == "alias" } ?? false
        guard !running.isEmpty || enabled else {
            report.add(DoctorFinding("mpris-proxy", .ok, "no mpris-proxy registers players beside the daemon"))
            return
        }
        let what = running.isEmpty ? "the user unit mpris-proxy.service is enabled"
                                   : "mpris-proxy runs (pid \(running.map(String.init).joined(separator: ", ")))"
        let fix = unit != nil ? "mprisd setup   (or: systemctl --user mask --now mpris-proxy.service)"
                              : "pkill -x mpris-proxy   (and remove what starts it: ~/.config/autostart, the session's startup)"
        report.add(DoctorFinding("mpris-proxy", .problem,
                                 "\(what): it registers every player with BlueZ, so a headset's buttons may reach another player "
                                 + "than the active one (the daemon registers the active one itself)", fix: fix))
    }

    /// logind (the screen lock, sleep) and bluetoothd (the headset) on the system bus.
    func checkSystemServices(_ report: inout DoctorReport) {
        let logind = system.flatMap { hasOwner("org.freedesktop.login1", on: $0) } ?? false
        report.add(logind
            ? DoctorFinding("logind", .ok, "logind is on the system bus: the screen lock and sleep are followed")
            : DoctorFinding("logind", .note, "no logind on the system bus: the screen lock and sleep are not followed "
                            + "(what plays goes on when the screen locks or the machine sleeps)"))
        let bluez = system.flatMap { hasOwner("org.bluez", on: $0) } ?? false
        report.add(bluez
            ? DoctorFinding("bluetooth", .ok, "bluetoothd is on the system bus: the headset's buttons reach the active player")
            : DoctorFinding("bluetooth", .note, "no bluetoothd on the system bus: a Bluetooth headset's buttons are not followed",
                            fix: "sudo systemctl enable --now bluetooth   (package bluez)"))
    }

    /// Every MPRIS player answers a property read within `patience`: one that does not is
    /// skipped by the keys and by the daemon's decisions until it answers again.
    func checkPlayers(_ report: inout DoctorReport) {
        let players = names("ListNames").filter { $0.hasPrefix("org.mpris.MediaPlayer2.") }.sorted()
        var silent: [String] = []
        for name in players where !answers(name) {
            silent.append(processID(of: name).map { "\(name) (pid \($0))" } ?? name)
        }
        guard silent.isEmpty else {
            for player in silent {
                report.add(DoctorFinding("players", .problem,
                                         "the player \(player) does not answer within 1 s: the media keys and the daemon skip it",
                                         fix: "restart that player"))
            }
            return
        }
        report.add(DoctorFinding("players", .ok, players.isEmpty ? "no MPRIS player on the bus now"
                                                                 : "every MPRIS player answers (\(players.count))"))
    }

    /// Whether `name` answers `Get(Player, PlaybackStatus)` — an error reply counts: it answered.
    private func answers(_ name: String) -> Bool {
        let call = Message.methodCall(destination: name, path: ObjectPath(trusted: "/org/mpris/MediaPlayer2"),
                                      interface: "org.freedesktop.DBus.Properties", member: "Get",
                                      body: [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus")])
        do {
            _ = try session.callAndWait(call, timeout: Self.patience)
            return true
        } catch {
            return error.name != DBusError.Name.noReply && error.name != "org.freedesktop.DBus.Error.Timeout"
        }
    }
}
