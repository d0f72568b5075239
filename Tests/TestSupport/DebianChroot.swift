import Foundation

/// Newer audio stacks than Debian 12's, for the tests that must meet them: a Debian 13 (trixie)
/// root with trixie-backports' PipeWire, pipewire-pulse and WirePlumber (1.6 and 0.5.12 when this
/// was written: WirePlumber ≥ 0.5.11 pauses MPRIS players itself on device loss). Built with
/// `debootstrap` from the Debian mirror apt is configured with, once per machine, and cached
/// (`MPRISD_TEST_CHROOTS`, default `/var/cache/mprisd-tests`): about 40 s and 540 MB the first
/// time, nothing after. The servers run in it through `chroot` in a private mount namespace
/// (`PipeWireServer(root:)`); their clients — the daemon, pactl, the players — stay on this system.
public enum DebianChroot {
    /// Why a chroot cannot be had here: the archive is out of reach (the one reason a test may
    /// skip for), or the machine lacks what building one needs.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The packages installed from trixie-backports; changing the list builds a new root.
    static let packages = ["pipewire", "pipewire-pulse", "wireplumber", "pipewire-bin"]
    static let name = "trixie-backports-pipewire-v1"

    /// The root, built first if it is not cached yet.
    public static func trixieBackportsPipeWire() async throws -> String {
        let cache = ProcessInfo.processInfo.environment["MPRISD_TEST_CHROOTS"] ?? "/var/cache/mprisd-tests"
        let root = cache + "/" + name
        let marker = root + "/.mprisd-complete"
        if FileManager.default.fileExists(atPath: marker) { return root }
        guard getuid() == 0 else { throw Unavailable(description: "building a chroot needs root (debootstrap, chroot)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/debootstrap") else {
            throw TestSupportError("debootstrap is not installed (scripts/packages.txt lists it)")
        }
        let scratch = root + ".partial-\(getpid())"
        try? FileManager.default.removeItem(atPath: scratch)
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let mirror = debianMirror()
        let bootstrap = try await run("/usr/sbin/debootstrap", ["--variant=minbase", "trixie", scratch, mirror],
                                      timeout: .seconds(900))
        guard bootstrap.status == 0 else {
            try? FileManager.default.removeItem(atPath: scratch)
            throw Unavailable(description: "debootstrap cannot reach \(mirror): \(bootstrap.error.suffix(600))")
        }
        try "deb \(mirror) trixie-backports main\n"
            .write(toFile: scratch + "/etc/apt/sources.list.d/backports.list", atomically: true, encoding: .utf8)
        let install = "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "
            + "-t trixie-backports \(packages.joined(separator: " ")) && apt-get clean"
        let apt = try await run("/usr/sbin/chroot", [scratch, "/bin/sh", "-c", install], timeout: .seconds(900))
        guard apt.status == 0 else {
            try? FileManager.default.removeItem(atPath: scratch)
            throw Unavailable(description: "trixie-backports' PipeWire could not be installed from \(mirror): \(apt.error.suffix(600))")
        }
        try packages.joined(separator: "\n").write(toFile: scratch + "/.mprisd-complete", atomically: true, encoding: .utf8)
        // Another test process may have finished first: its root is as good as this one.
        if rename(scratch, root) != 0 { try? FileManager.default.removeItem(atPath: scratch) }
        return root
    }

    /// The first Debian archive of apt's sources (deb822 `URIs:` or a `deb` line), else Debian's
    /// own mirror.
    static func debianMirror() -> String {
        let files = ["/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"]
        for file in files {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                let uri = words.first == "URIs:" ? words.dropFirst().first
                    : words.first == "deb" ? words.dropFirst().first { $0.hasPrefix("http") } : nil
                if let uri, !uri.contains("security") { return uri }
            }
        }
        return "http://deb.debian.org/debian"
    }

    private static func run(_ path: String, _ arguments: [String],
                            timeout: Duration) async throws -> (status: Int32, error: String) {
        let process = try BackgroundProcess(path, arguments)
        let status = await process.waitForExit(timeout: timeout)
        return (status, process.standardError)
    }
}
