import SystemContext

/// Who holds the media keys: the desktop's own handler picks a player of its own (GNOME's
/// gsd-media-keys: the one that appeared last), until `mprisd setup` gives the keys to the daemon.
extension Doctor {
    func checkMediaKeys(_ report: inout DoctorReport) {
        guard let desktop = SetupDesktop.current else {
            report.add(DoctorFinding("media-keys", .note, "no desktop known from XDG_CURRENT_DESKTOP: bind the media keys to "
                                     + "'mprisd-control play-pause --key' (and next, previous, stop) in what handles your keys"))
            return
        }
        let record = try? SetupRecord.load()
        switch desktop {
        case .gnome:
            guard DconfStore.unavailable == nil, DconfStore.schemaDefault(GnomeMediaKeys.schema, "play-static") != nil else {
                report.add(DoctorFinding("media-keys", .note, "GNOME without gnome-settings-daemon's media keys (or libdconf1): "
                                         + "nothing to hand over"))
                return
            }
            let held = ["play-static", "play"].flatMap { name in
                GVariantStrings.parse(DconfStore.read(GnomeMediaKeys.directory + name)
                                      ?? DconfStore.schemaDefault(GnomeMediaKeys.schema, name) ?? "@as []") ?? []
            }.filter { !$0.isEmpty }
            if held.isEmpty {
                report.add(DoctorFinding("media-keys", .ok, record != nil ? "GNOME's media keys run mprisd-control (mprisd setup)"
                                                                          : "GNOME holds no Play key of its own"))
            } else {
                report.add(DoctorFinding("media-keys", .problem, "GNOME's own handler holds \(held.joined(separator: ", ")) and sends "
                                         + "it to the player it picks (the one that appeared last), not the daemon's", fix: "mprisd setup"))
            }
        case .sway, .i3, .hyprland:
            let manager = TilingKeys.Manager(rawValue: desktop.rawValue)
            if let manager, (try? SettingsFile.read(manager.file)) != nil {
                report.add(DoctorFinding("media-keys", .ok, "\(manager.file) binds the media keys to mprisd-control "
                                         + "(included from \(manager.configuration) with '\(manager.include)'?)"))
            } else {
                report.add(DoctorFinding("media-keys", .problem, "no bindings of the media keys to mprisd-control for \(desktop.rawValue)",
                                         fix: "mprisd setup"))
            }
        case .xfce:
            let stores = SetupStores(session: session)
            let play = try? stores.read(.xfconf, XfceMediaKeys.shortcuts + ":/commands/custom/XF86AudioPlay")
            if let command = play, command.contains("mprisd-control") {
                report.add(DoctorFinding("media-keys", .ok, "Xfce's Play key runs mprisd-control (mprisd setup)"))
            } else {
                report.add(DoctorFinding("media-keys", .problem, "Xfce's own handlers (the panel's PulseAudio plugin) hold the media "
                                         + "keys and send them to a player they pick, not the daemon's", fix: "mprisd setup"))
            }
        case .kde:
            let stores = SetupStores(session: session)
            let play = KDEMediaKeys.key(KDEMediaKeys.launcher("play-pause"), "_launch", "", "")
            let media = try? stores.kglobalaccelActions(KDEMediaKeys.component)
            if let launcher = try? stores.read(.kglobalaccel, play), !KGlobalAccelKeys.parse(launcher).isEmpty {
                report.add(DoctorFinding("media-keys", .ok, "KDE Plasma's Play key runs mprisd-control (mprisd setup)"))
            } else if let id = media?["playpausemedia"],
                      let held = try? stores.read(.kglobalaccel, KDEMediaKeys.key(id[0], id[1], id[2], id[3])),
                      !KGlobalAccelKeys.parse(held).isEmpty {
                report.add(DoctorFinding("media-keys", .problem, "Plasma's Media Controller holds the media keys and sends them to "
                                         + "a player it picks, not the daemon's", fix: "mprisd setup"))
            } else {
                report.add(DoctorFinding("media-keys", .note, "no media key of Plasma's Media Controller is known to kglobalaccel "
                                         + "now; mprisd setup binds them to mprisd-control"))
            }
        }
    }
}
