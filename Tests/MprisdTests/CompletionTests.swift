import Foundation
import TestSupport
import XCTest

/// The shell completions in `dist/completions`, run by the real shells: bash sources
/// `mprisd.bash` and calls `_mprisd` with `COMP_WORDS` as readline would; zsh (where installed)
/// runs its completion system on a line in a pseudo-terminal and reports every candidate. Each
/// command's options are compared with what its `--help` lists, so the three cannot drift apart.
final class CompletionTests: XCTestCase {
    private var home: String!

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "mprisd-completion-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home + "/config/mprisd", withIntermediateDirectories: true)
        // One configured output, so that `mprisd route list` has an ID beyond the speaker.
        try "output.usb-dac = hw:CARD=DAC,DEV=0\n".write(toFile: home + "/config/mprisd/config", atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        _ = try? FileManager.default.removeItem(atPath: home)
    }

    /// The built `mprisd` first on PATH (route IDs come from `mprisd route list`), the test's own
    /// configuration and state, no system bus (no Bluetooth outputs to find).
    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Products.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent"
        environment["HOME"] = home
        return environment
    }

    /// Completes each line (the cursor at its end) with bash; the candidates of each, sorted.
    private func bashCompletions(_ lines: [String]) async throws -> [String: [String]] {
        let driver = """
            source "$1"; shift
            for line in "$@"; do
                read -ra COMP_WORDS <<< "$line"
                [[ $line == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE=$line; COMP_POINT=${#line}
                COMPREPLY=()
                _mprisd mprisd "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                echo "<<$line>>"
                printf '%s\\n' "${COMPREPLY[@]}"
            done
            """
        let result = try await runProgram("/bin/bash", ["--norc", "--noprofile", "-c", driver, "bash",
                                                        Repository.path("dist/completions/mprisd.bash")] + lines,
                                          environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "the completion runs without errors")
        return Self.split(result.stdout)
    }

    /// `<<line>>` markers followed by candidates → candidates by line, sorted.
    private static func split(_ output: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var current: String?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("<<"), line.hasSuffix(">>") {
                current = String(line.dropFirst(2).dropLast(2))
                result[current!, default: []] = []
            } else if let current, !line.isEmpty {
                result[current, default: []].append(line)
            }
        }
        return result.mapValues { $0.sorted() }
    }

    func testBashCompletesCommandsOptionsValuesAndRouteIDs() async throws {
        let mprisd = try Repository.mprisd()
        // A pick marks its row with '*': the IDs must still come out right.
        let pick = try await runProgram(mprisd, ["route", "use", "usb-dac"], environment: environment)
        XCTAssertEqual(pick.status, 0, pick.stderr)

        var lines = ["mprisd ", "mprisd pl", "mprisd --", "mprisd play --", "mprisd play --loop ", "mprisd run --category ",
                     "mprisd run --mode ", "mprisd silent ", "mprisd route ", "mprisd route use ",
                     "mprisd route --control hw:0 use ", "mprisd help ", "mprisd run --mix -- ech",
                     "mprisd --control hw:0 st", "mprisd apps ", "mprisd apps set ", "mprisd apps unset ",
                     "mprisd apps set app zoom ", "mprisd apps set binary zoom playAndRecord vo", "mprisd apps set app zoom call ",
                     "mprisd apps list ", "mprisd player ", "mprisd control ", "mprisd control seek ",
                     "mprisd --ignore-players firefox pl", "mprisd setup --desktop "]
        let commands = ["play", "run", "status", "doctor", "setup", "apps", "silent", "route", "players", "player", "control"]
        lines += commands.map { "mprisd \($0) --" }
        let got = try await bashCompletions(lines)

        XCTAssertEqual(got["mprisd "], ["apps", "control", "doctor", "help", "play", "player", "players", "route", "run", "setup", "silent", "status"])
        XCTAssertEqual(got["mprisd player "], ["next", "pin", "unpin"])
        XCTAssertEqual(got["mprisd control "], ["next", "pause", "play", "play-pause", "position", "previous", "seek", "stop", "volume"])
        XCTAssertEqual(got["mprisd control seek "], [])
        XCTAssertEqual(got["mprisd --ignore-players firefox pl"], ["play", "player", "players"], "the daemon's --ignore-players value is skipped")
        XCTAssertEqual(got["mprisd pl"], ["play", "player", "players"])
        XCTAssertEqual(got["mprisd --control hw:0 st"], ["status"], "the daemon's --control value is skipped")
        XCTAssertEqual(got["mprisd play --loop "], ["none", "playlist", "track"])
        XCTAssertEqual(got["mprisd silent "], ["off", "on"])
        XCTAssertEqual(got["mprisd route "], ["list", "use"])
        XCTAssertEqual(got["mprisd route use "], ["auto", "speaker", "usb-dac"], "IDs from mprisd route list")
        XCTAssertEqual(got["mprisd route --control hw:0 use "], ["auto", "speaker", "usb-dac"])
        XCTAssertEqual(got["mprisd help "], ["apps", "config", "control", "daemon", "doctor", "play", "player", "players", "route", "run", "setup", "silent", "status"])
        XCTAssertEqual(got["mprisd apps "], ["list", "set", "unset"])
        XCTAssertEqual(got["mprisd setup --desktop "], ["gnome", "hyprland", "i3", "kde", "sway", "xfce"])
        XCTAssertEqual(got["mprisd apps set "], ["app", "binary", "flatpak"])
        XCTAssertEqual(got["mprisd apps unset "], ["app", "binary", "flatpak"])
        XCTAssertEqual(got["mprisd apps list "], [])
        XCTAssertEqual(got["mprisd apps set app zoom call "], [], "a class takes nothing after it")
        XCTAssertEqual(got["mprisd apps set binary zoom playAndRecord vo"], ["voiceChat", "voicePrompt"])
        XCTAssertTrue(got["mprisd run --mix -- ech"]?.contains("echo") == true, "the wrapped program: \(got)")

        // Options and values agree with the program's own help.
        let daemonHelp = try await runProgram(mprisd, ["--help"])
        XCTAssertEqual(got["mprisd --"], Repository.options(inHelp: daemonHelp.stdout).sorted())
        for command in commands {
            let help = try await runProgram(mprisd, [command, "--help"])
            var expected = Repository.options(inHelp: help.stdout)
            if command == "run" { expected.append("--") }
            XCTAssertEqual(got["mprisd \(command) --"], expected.sorted(), "options of \(command)")
        }
        let run = try await runProgram(mprisd, ["run", "--help"])
        XCTAssertEqual(got["mprisd run --category "], Repository.values(of: "--category", inHelp: run.stdout).sorted())
        XCTAssertEqual(got["mprisd run --mode "], Repository.values(of: "--mode", inHelp: run.stdout).sorted())
    }

    /// zsh's completion system on a line, in a pseudo-terminal: every candidate that reaches
    /// `compadd`, printed between the two NUL lines of `compprefuncs`/`comppostfuncs`.
    private static let zshCapture = #"""
        zmodload zsh/zpty || exit 3
        zpty z zsh -f -i
        init=$(mktemp)
        cat > $init <<INIT
        PROMPT=
        fpath=($1 \$fpath)
        autoload -U compinit
        compinit -u -D
        bindkey '^I' complete-word
        null-line() { echo -E - \$'\0' }
        compprefuncs=(null-line)
        comppostfuncs=(null-line exit)
        compadd() {
          if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "\$@"; return; fi
          local -a hits
          builtin compadd -A hits "\$@"
          local hit
          for hit in \$hits; do echo -E - "\$hit"; done
        }
        echo ready
        INIT
        zpty -w z "source $init"
        local line
        repeat 8; do
          zpty -r z line
          [[ $line == ready* ]] && break
        done
        zpty -w z "$2"$'\t'
        integer marks=0
        while zpty -r z line; do
          if [[ $line == *$'\0'* ]]; then
            (( marks++ )) && break
            continue
          fi
          line=${line%$'\n'}; line=${line%$'\r'}
          (( marks )) && print -r -- $line
        done
        rm -f $init
        """#

    private func zshCompletions(_ line: String, zsh: String) async throws -> [String] {
        let script = home + "/capture.zsh"
        try Self.zshCapture.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try await runProgram(zsh, ["-f", script, Repository.path("dist/completions"), line],
                                          environment: environment, timeout: .seconds(20))
        XCTAssertEqual(result.status, 0, "\(line): \(result.stderr)")
        return Array(Set(result.stdout.split(separator: "\n").map(String.init))).sorted()
    }

    func testZshCompletesCommandsOptionsValuesAndRouteIDs() async throws {
        guard let zsh = ["/usr/bin/zsh", "/bin/zsh"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("zsh is not installed (scripts/packages.txt lists it)")
        }
        let syntax = try await runProgram(zsh, ["-n", Repository.path("dist/completions/_mprisd")])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
        let mprisd = try Repository.mprisd()

        let commands = try await zshCompletions("mprisd ", zsh: zsh)
        XCTAssertEqual(commands, ["apps", "control", "doctor", "help", "play", "player", "players", "route", "run", "setup", "silent", "status"])
        let playerActions = try await zshCompletions("mprisd player ", zsh: zsh)
        XCTAssertEqual(playerActions, ["next", "pin", "unpin"])
        let controlActions = try await zshCompletions("mprisd control ", zsh: zsh)
        XCTAssertEqual(controlActions, ["next", "pause", "play", "play-pause", "position", "previous", "seek", "stop", "volume"])
        let help = try await runProgram(mprisd, ["play", "--help"])
        let options = try await zshCompletions("mprisd play --", zsh: zsh)
        XCTAssertEqual(options, Repository.options(inHelp: help.stdout).sorted())
        let loop = try await zshCompletions("mprisd play --loop ", zsh: zsh)
        XCTAssertEqual(loop, ["none", "playlist", "track"])
        let run = try await runProgram(mprisd, ["run", "--help"])
        let categories = try await zshCompletions("mprisd run --category ", zsh: zsh)
        XCTAssertEqual(categories, Repository.values(of: "--category", inHelp: run.stdout).sorted())
        let silent = try await zshCompletions("mprisd silent ", zsh: zsh)
        XCTAssertEqual(silent, ["off", "on"])
        let actions = try await zshCompletions("mprisd route ", zsh: zsh)
        XCTAssertEqual(actions, ["list", "use"])
        let appsActions = try await zshCompletions("mprisd apps ", zsh: zsh)
        XCTAssertEqual(appsActions, ["list", "set", "unset"])
        let matches = try await zshCompletions("mprisd apps set ", zsh: zsh)
        XCTAssertEqual(matches, ["app", "binary", "flatpak"])
        let modes = try await zshCompletions("mprisd apps set binary zoom playAndRecord vo", zsh: zsh)
        XCTAssertEqual(modes, ["voiceChat", "voicePrompt"])
        let ids = try await zshCompletions("mprisd route use ", zsh: zsh)
        XCTAssertEqual(ids, ["auto", "speaker", "usb-dac"], "IDs from mprisd route list")
    }
}
