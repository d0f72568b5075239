import Posix

extension Commands {
    static let doctor = Command(
        name: "doctor",
        summary: "say what stands between you and what the daemon promises, with the fix",
        help: """
            Usage: mprisd doctor [--json]

            Looks at what the daemon needs and what competes with it, and says for each what
            is in the way and the command that fixes it: the daemon not running, not answering
            or not started at login; no audio server it can reach; a journal it cannot write;
            mpris-proxy registering players with BlueZ beside it; a player that does not
            answer. Notes (no logind, no bluetoothd, WirePlumber pausing on device loss itself)
            say what then does not work, and do not count as problems. Starts nothing and
            changes nothing.

            Exit status: 0 when nothing is in the way, 1 when something is.

            Options:
              --json      print a stable JSON document ({"problems": N, "findings": [...]})
              -h, --help  show this help
            """,
        run: { arguments in
            let json = try arguments.popSwitch("--json")
            try arguments.expectEnd()
            return DoctorProgram.run(json: json)
        })
}
