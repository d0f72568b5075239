import AudioPolicyClient
import DBus
import PolicyJournal

/// The daemon itself: running and answering, started at login, and what its status says is in
/// its way (no audio server, a journal it cannot write).
extension Doctor {
    /// The systemd user manager on the session bus (`org.freedesktop.systemd1`), where there is one.
    static let systemdName = "org.freedesktop.systemd1"

    /// Whether the daemon runs and answers; its status when it does.
    func checkDaemon(_ report: inout DoctorReport) -> PolicyStatus? {
        guard hasOwner(AudioPolicyNames.busName, on: session) == true else {
            report.add(DoctorFinding("daemon", .problem,
                                     "the policy daemon is not running: unplugging, calls and the media keys are not governed",
                                     fix: startCommand()))
            return nil
        }
        let pid = processID(of: AudioPolicyNames.busName)
        let who = pid.map { "pid \($0)" } ?? "its pid unknown"
        switch StatusProgram.fetch(command: "doctor") {
        case .success(let status):
            report.add(DoctorFinding("daemon", .ok, "the policy daemon runs (\(who))"))
            return status
        case .failure(let failure):
            report.add(DoctorFinding("daemon", .problem, "the policy daemon (\(who)) does not answer: \(failure.message)",
                                     fix: hasSystemd ? "systemctl --user restart mprisd"
                                         : "\(pid.map { "kill \($0)" } ?? "stop it") and start mprisd again"))
            return nil
        }
    }

    /// How to start the daemon here: through systemd where a user manager runs, through the bus
    /// where the activation file is installed, else by hand.
    private func startCommand() -> String {
        if hasSystemd { return "systemctl --user enable --now mprisd" }
        if isActivatable { return "mprisd status   (the session bus starts the daemon)" }
        return "mprisd &   (or install the package: the session bus then starts it on first use)"
    }

    /// `GetUnitFileState` of the user manager: "enabled", "disabled", "masked", …; nil for a unit
    /// it does not know (or no manager).
    func unitFileState(_ unit: String) -> String? {
        let call = Message.methodCall(destination: Self.systemdName, path: ObjectPath(trusted: "/org/freedesktop/systemd1"),
                                      interface: "org.freedesktop.systemd1.Manager", member: "GetUnitFileState",
                                      body: [.string(unit)])
        guard let reply = try? session.callAndWait(call, timeout: Self.patience),
              case .string(let state)? = reply.body.first else { return nil }
        return state
    }

    /// Whether the user unit starts the daemon with each login.
    func checkAutostart(_ report: inout DoctorReport) {
        guard hasSystemd else {
            report.add(DoctorFinding("autostart", .note, "no systemd user manager on this bus: nothing starts the daemon at login"
                                     + (isActivatable ? " (the bus starts it on first use)" : "")))
            return
        }
        switch unitFileState("mprisd.service") {
        case "enabled", "enabled-runtime", "linked", "linked-runtime", "alias", "indirect", "generated", "transient":
            report.add(DoctorFinding("autostart", .ok, "the user unit mprisd.service starts with each login"))
        case "masked", "masked-runtime":
            report.add(DoctorFinding("autostart", .problem, "the user unit mprisd.service is masked: the daemon never starts",
                                     fix: "systemctl --user unmask mprisd && systemctl --user enable --now mprisd"))
        case nil:
            report.add(DoctorFinding("autostart", .problem, "no user unit mprisd.service is installed",
                                     fix: "install the mprisd package (or scripts/install-user.sh from a clone)"))
        case let state?:
            report.add(DoctorFinding("autostart", .problem, "the user unit mprisd.service is \(state): the daemon does not start at login",
                                     fix: "systemctl --user enable --now mprisd"))
        }
    }

    /// What the daemon's status says stands in its way.
    func checkStatus(_ status: PolicyStatus, _ report: inout DoctorReport) {
        if let server = status.audioServer {
            if server.connected {
                let name = [server.name, server.version].compactMap { $0 }.joined(separator: " ")
                report.add(DoctorFinding("audio-server", .ok, "the daemon follows the audio server\(name.isEmpty ? "" : " (\(name))")"))
            } else {
                report.add(DoctorFinding("audio-server", .problem,
                                         "the daemon reaches no audio server (\(server.reason ?? "not connected")) at \(server.address): "
                                         + "apps without MPRIS are not governed, device loss is decided by the route alone",
                                         fix: "systemctl --user start pipewire-pulse.socket wireplumber   (or: pulseaudio --start)"))
            }
            if server.deviceLossPausedBy == "WirePlumber" {
                report.add(DoctorFinding("wireplumber", .note,
                                         "WirePlumber pauses players itself when their device goes (linking.pause-playback); the daemon leaves that to it",
                                         fix: "wpctl settings --save linking.pause-playback false   (to have the daemon decide it, per stream)"))
            }
        }
        if let problem = status.journalProblem {
            report.add(DoctorFinding("journal", .problem,
                                     "the journal of changes cannot be written (\(problem)): nothing is paused, ducked or muted until it can",
                                     fix: "make room in \(ChangeJournal.defaultFile.directory) (df -h \(ChangeJournal.defaultFile.directory))"))
        }
    }
}
