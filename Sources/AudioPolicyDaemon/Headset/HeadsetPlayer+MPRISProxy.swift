import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Posix

/// mpris-proxy (BlueZ's tool, started by its user unit on many desktops) registers every MPRIS
/// player with BlueZ on the same adapters; the headset then controls whichever registered first,
/// not the active player. BlueZ does not show other programs' registrations, and the caller of
/// `Media1` cannot be named, so the process list is looked at — only when the daemon registers,
/// never on a timer — and a running mpris-proxy is reported once per process, with what to do.
extension HeadsetPlayer {
    func warnAboutMPRISProxy() {
        let found = Self.mprisProxyProcesses()
        let new = state.withLock { state -> [Int32] in
            let new = found.filter { !state.warnedProxies.contains($0) }
            state.warnedProxies = Set(found)
            return new
        }
        for pid in new {
            warn("headset: mpris-proxy (pid \(pid)) also registers every player with BlueZ, so the headset "
                + "may control another player than the active one; stop it for good with "
                + "`systemctl --user mask --now mpris-proxy.service`")
        }
    }

    /// The pids of this user's processes named `mpris-proxy` (`/proc/PID/comm`); `mprisd doctor`
    /// asks too.
    public static func mprisProxyProcesses() -> [Int32] {
        let uid = getuid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                  let comm = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8),
                  comm.trimmingWhitespace() == "mpris-proxy",
                  ownerID(of: "/proc/\(entry)") == uid else { return nil }
            return pid
        }.sorted()
    }

    /// The owner of `path` (`stat`), nil if it cannot be read.
    private static func ownerID(of path: String) -> uid_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_uid : nil
    }
}
