import DBus
import Foundation
import TestSupport
import XCTest

/// The first-hour snippets of the documentation pages, run as a new user would run them: the fenced
/// `sh` blocks under "Installing as a user service" (docs/install.md), "Use with playerctl" and
/// "Wrapping any program: `mprisd run`" (docs/player.md), "Pairing with a Bluetooth headset
/// (mpris-proxy)" and "The active player and the keys" (docs/keys-and-headset.md), the install first,
/// in a fresh home, with a private session bus (which starts the daemon from the installed activation
/// file) and a private system bus. Every line runs under `set -e`; the few that cannot run here are
/// rewritten through `substitutions`, each with its reason. Editing a snippet so that it breaks fails
/// these tests.
final class ReadmeSnippetTests: XCTestCase {
    /// A section of a documentation page: the page's path in the repository and the heading's title.
    struct Section: Sendable {
        let page: String
        let title: String

        static let install = Section(page: "docs/install.md", title: "Installing as a user service")
        static let playerctl = Section(page: "docs/player.md", title: "Use with playerctl")
        static let run = Section(page: "docs/player.md", title: "Wrapping any program: `mprisd run`")
        static let headset = Section(page: "docs/keys-and-headset.md", title: "Pairing with a Bluetooth headset (mpris-proxy)")
        static let keys = Section(page: "docs/keys-and-headset.md", title: "The active player and the keys")
        static let apps = Section(page: "docs/calls-and-prompts.md", title: "Calls and prompts from any app")
    }

    /// A rewrite of the snippet lines that start with `prefix` (comments taken off first).
    struct Substitution: Sendable {
        let prefix: String
        let replace: @Sendable (String) -> String
        let why: String
    }

    static let substitutions: [Substitution] = [
        Substitution(prefix: "scripts/install-user.sh",
                     replace: { "DESTHOME=\"$HOME\" MPRISD_BINARY=\"$MPRISD_BUILT\" " + $0 },
                     why: "no release build inside a test, and nothing enabled: the debug build is installed into the test's home"),
        Substitution(prefix: "systemctl --user status mprisd",
                     replace: { _ in "busctl --user call org.mprisd.AudioPolicy /org/mprisd/AudioPolicy org.freedesktop.DBus.Peer Ping" },
                     why: "no systemd user manager here: the bus starts the daemon from the installed activation file, as on a machine without one"),
        Substitution(prefix: "systemctl --user enable --now mpris-proxy.service",
                     replace: { _ in "$(sed -n 's/^ExecStart=//p' ~/.config/systemd/user/mpris-proxy.service) &" },
                     why: "no systemd user manager here: the ExecStart of the unit the snippet wrote, started by hand"),
        Substitution(prefix: "bluetoothctl ",
                     replace: { ": " + $0 },
                     why: "needs bluetoothd and a real headset; the test's fake bluetoothd (python3-dbusmock) is the paired, connected headset"),
        Substitution(prefix: "mprisd play ",
                     replace: { line in
                         // No sound card here: the silent output paced in real time. A person types the next line
                         // later than the player takes to appear; a script waits for its MPRIS name.
                         var code = "mprisd play --device null " + line.dropFirst("mprisd play ".count)
                         guard code.hasSuffix("&") else { return code }
                         let words = code.split(separator: " ")
                         if let index = words.firstIndex(of: "--name"), index + 1 < words.count {
                             code += " wait_for_player \(words[index + 1])"
                         }
                         return code
                     },
                     why: "no sound card: --device null; a background player is waited for until its MPRIS name is on the bus"),
        Substitution(prefix: "mprisd players",
                     replace: { line in "until mprisd players | grep -q '^\\* 1 '; do sleep 0.05; done; " + line },
                     why: "a person looks after the player has played a moment; a script waits until the daemon has read its status"),
        Substitution(prefix: "mprisd run ",
                     replace: { line in
                         guard let dashes = line.range(of: " -- ") else { return line }
                         let program = line[dashes.upperBound...]
                         let stand = program.hasPrefix("espeak-ng") ? "true" : program.hasPrefix("linphone") ? "sleep 0.3" : String(program)
                         return line[..<dashes.upperBound] + stand
                     },
                     why: "espeak-ng and linphone are not installed: true (a prompt that ends at once) and sleep 0.3 (a short call)"),
    ]

    private var home: String!
    private var session: TestBus?
    private var system: TestBus?
    private var bluez: FakeBluez?

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "mprisd-readme-\(UUID().uuidString.prefix(8))"
        // The service folder exists before the bus starts, so that the bus watches it.
        try FileManager.default.createDirectory(atPath: home + "/.local/share/dbus-1/services", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/Music/album", withIntermediateDirectories: true)
        try WAVFile.writeCountingTone(seconds: 6, to: home + "/Music/album/01 first.wav")
        try WAVFile.writeCountingTone(seconds: 6, to: home + "/Music/album/02 second.wav")
    }

    override func tearDown() {
        bluez?.stop()
        session?.stop()
        system?.stop()
        _ = try? FileManager.default.removeItem(atPath: home)
    }

    // MARK: The pages

    /// The `sh` blocks under the section's heading (up to the next heading of any level).
    static func shellBlocks(under section: Section) throws -> [String] {
        let text = try String(contentsOfFile: Repository.path(section.page), encoding: .utf8)
        var blocks: [String] = []
        var inSection = false
        var block: [String]?
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if fenced {
                    if let finished = block { blocks.append(finished.joined(separator: "\n")) }
                    block = nil
                    fenced = false
                } else {
                    fenced = true
                    block = inSection && line == "```sh" ? [] : nil
                }
                continue
            }
            if fenced {
                block?.append(line)
            } else if line.hasPrefix("#") {
                inSection = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) == section.title
            }
        }
        guard !blocks.isEmpty else { throw TestSupportError("\(section.page) has no sh block under '\(section.title)'") }
        return blocks
    }

    /// The block as the test runs it: each line through `substitutions`, here-documents untouched.
    static func runnable(_ block: String) -> String {
        var lines: [String] = []
        var hereDocument: String?
        for line in block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let end = hereDocument {
                lines.append(line)
                if line == end { hereDocument = nil }
                continue
            }
            if let start = line.range(of: "<<'") {
                hereDocument = String(line[start.upperBound...].prefix { $0 != "'" })
            }
            let code = (line.components(separatedBy: " #").first ?? line).trimmingCharacters(in: .whitespaces)
            if let substitution = substitutions.first(where: { code.hasPrefix($0.prefix) }) {
                lines.append(substitution.replace(code))
            } else {
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Running

    private static let prelude = """
        set -euo pipefail
        trap 'echo "snippet line failed ($?): $BASH_COMMAND" >&2' ERR
        trap 'kill $(jobs -p) 2>/dev/null || true; wait || true' EXIT
        cd "$REPOSITORY"
        wait_for_player() {
            for _ in $(seq 150); do playerctl -l 2>/dev/null | grep -qx "$1" && return 0; sleep 0.1; done
            echo "no MPRIS player $1 appeared" >&2; return 1
        }

        """

    /// Held until the test has looked at the running players: it creates this file.
    private var releaseFile: String { home + "/.readme-test-done" }

    private func start(_ sections: [Section], systemBus: String = "unix:path=/nonexistent") throws -> BackgroundProgram {
        var base = ProcessInfo.processInfo.environment
        for key in ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "NO_COLOR", "JOURNAL_STREAM"] {
            base.removeValue(forKey: key)
        }
        base["HOME"] = home
        base["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus
        let session = try TestBus(serviceDirectory: home + "/.local/share/dbus-1/services", environment: base)
        self.session = session
        var environment = session.environment
        for (key, value) in base where key != "DBUS_SESSION_BUS_ADDRESS" { environment[key] = value }
        environment["PATH"] = home + "/.local/bin:/usr/bin:/bin"
        environment["MPRISD_BUILT"] = try Repository.mprisd()
        environment["REPOSITORY"] = Repository.root
        environment["MANPAGER"] = "cat"
        environment["PAGER"] = "cat"
        var script = Self.prelude
        for section in sections {
            for block in try Self.shellBlocks(under: section) {
                script += "# --- \(section.page): \(section.title)\n" + Self.runnable(block) + "\n"
            }
        }
        script += "until [ -e \(releaseFile) ]; do sleep 0.05; done\n"
        return try BackgroundProgram("/bin/bash", ["--norc", "--noprofile", "-c", script], environment: environment)
    }

    /// Lets the script end and returns its status.
    private func finish(_ script: BackgroundProgram) async -> Int32 {
        _ = FileManager.default.createFile(atPath: releaseFile, contents: nil)
        return await script.waitForExit(timeout: .seconds(30))
    }

    // MARK: Tests

    func testInstallingAsAUserService() async throws {
        let script = try start([.install])
        let status = await finish(script)
        XCTAssertEqual(status, 0, script.stderr)
        XCTAssertTrue(script.stdout.contains("Silent mode"), "mprisd status answered: \(script.stdout)")
        XCTAssertTrue(script.stdout.contains("MPRISD(1)"), "man mprisd found the installed page")
        for file in [".local/bin/mprisd", ".local/share/man/man1/mprisd.1", ".local/share/bash-completion/completions/mprisd",
                     ".local/share/zsh/site-functions/_mprisd", ".config/systemd/user/mprisd.service"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/" + file), file)
        }
    }

    func testUseWithPlayerctl() async throws {
        let script = try start([.install, .playerctl])
        let status = await finish(script)
        XCTAssertEqual(status, 0, script.stderr)
        let lines = script.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("music"), "playerctl -l lists the player: \(script.stdout)")
        XCTAssertEqual(lines.last, "Playing", "playerctl status after pause, play, next: \(script.stdout)")
    }

    func testPairingWithABluetoothHeadset() async throws {
        let system = try TestBus(.system)
        self.system = system
        let bluez = try await FakeBluez.start(on: system)
        self.bluez = bluez
        let script = try start([.install, .headset], systemBus: system.address)
        let registered = try await bluez.waitForRegisteredPlayer(timeout: .seconds(20))
        // Registered as it was then (a player just started may still say Paused), and the
        // registered object follows it: BlueZ sees it play.
        let followed = await eventually(timeout: .seconds(10)) {
            await Self.status(ofRegistered: registered.path, on: system) == "Playing"
        }
        XCTAssertTrue(followed, "\(registered.properties)\nscript: \(script.stderr)\nbus and daemon: \(session?.log ?? "")")
        XCTAssertTrue(script.isRunning, "the snippet is still running: \(script.stderr)")
        let status = await finish(script)
        XCTAssertEqual(status, 0, script.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/.config/systemd/user/mpris-proxy.service"))
    }

    /// `PlaybackStatus` of the player registered at `path`, asked on the system bus of whichever
    /// connection serves it there (the daemon's headset object); nil if none answers.
    private static func status(ofRegistered path: String, on system: TestBus) async -> String? {
        guard let connection = try? Connection(address: system.address), let object = try? ObjectPath(path) else { return nil }
        defer { connection.close() }
        for name in (try? await connection.listNames()) ?? [] where name.hasPrefix(":") && name != connection.uniqueName {
            let reply = try? await connection.call(destination: name, path: object, interface: "org.freedesktop.DBus.Properties",
                                                   member: "Get", [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus")],
                                                   timeout: .seconds(2))
            if case .variant(.string(let status))? = reply?.first { return status }
        }
        return nil
    }

    func testWrappingAProgramWithMprisdRun() async throws {
        let script = try start([.install, .run])
        let status = await finish(script)
        XCTAssertEqual(status, 0, script.stderr)
        XCTAssertFalse(script.stderr.contains("no policy daemon"), "the installed daemon served both: \(script.stderr)")
        XCTAssertFalse(script.stderr.contains("without an audio session"), script.stderr)
    }

    func testTheActivePlayerAndTheKeys() async throws {
        let script = try start([.install, .keys])
        let status = await finish(script)
        XCTAssertEqual(status, 0, script.stderr)
        XCTAssertTrue(script.stdout.contains("* 1 org.mpris.MediaPlayer2.music  Playing  playing since "), script.stdout)
        XCTAssertTrue(script.stdout.contains("pinned org.mpris.MediaPlayer2.music"), script.stdout)
    }

    func testEverySubstitutionIsUsed() throws {
        let sections: [Section] = [.install, .playerctl, .headset, .run, .keys]
        let lines = try sections.flatMap { try Self.shellBlocks(under: $0) }.flatMap { $0.split(separator: "\n") }
            .map { ($0.components(separatedBy: " #").first ?? "").trimmingCharacters(in: .whitespaces) }
        for substitution in Self.substitutions {
            XCTAssertTrue(lines.contains { $0.hasPrefix(substitution.prefix) },
                          "'\(substitution.prefix)' still appears in the snippets (else drop it from the table)")
        }
    }
}
