import DBus
import Posix
#if canImport(Glibc)
import Glibc
#endif

// `mprisd-control ACTION [VALUE] [--verbose]`: `mprisd control` for key bindings, as a program of
// its own. The same one call to the daemon (`Control(s, d)`), the same words and exit statuses;
// what differs is what runs before it: this program links the D-Bus binding and the Swift
// runtime only, where `mprisd` also loads FoundationEssentials and ALSA (libpulse and libsndfile
// only on first use, never for `mprisd control`: "Issue 16: libraries loaded on first use") —
// 15 ms of start-up per key press on the benchmark machine when `mprisd` still imported all of
// Foundation and ICU (BENCHMARKS.md, "Issue 16"; "Issue 17" for the packaged, static build).

let actions = ["play", "pause", "play-pause", "next", "previous", "stop", "seek", "position", "volume"]
let usageText = """
    Usage: mprisd-control play|pause|play-pause|next|previous|stop [--key] [--verbose]
           mprisd-control seek ±SECONDS|position SECONDS|volume ±V [--verbose]

    The same as 'mprisd control' (see 'mprisd control --help'), started faster: for the
    media keys of a desktop or window manager.

    --key: the command is a key binding's: a held key acts once (the daemon takes a press of
    play, pause, play-pause or stop within 700 ms of the last as its auto-repeat).
    """

let stdoutFD: Int32 = 1
let stderrFD: Int32 = 2

/// One line to `fd` (`write(2)`: no stdio state to share); on standard error with its control
/// characters escaped (an argument typed with ESC, a name the daemon's error quotes back).
func say(_ text: String, to fd: Int32) {
    var line = (fd == stderrFD ? TerminalText.sanitizedLines(text) : text) + "\n"
    line.withUTF8 { bytes in _ = write(fd, bytes.baseAddress, bytes.count) }
}

func usageError(_ reason: String) -> Never {
    say("mprisd-control: \(reason)", to: stderrFD)
    exit(ExitStatus.usage)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    guard arguments.count == 1 else { usageError("--help takes nothing else") }
    say(usageText, to: stdoutFD)
    exit(ExitStatus.success)
}
let verbose = arguments.contains("--verbose")
let key = arguments.contains("--key")
arguments.removeAll { $0 == "--verbose" || $0 == "--key" }
guard let action = arguments.first else { usageError("needs an action: \(actions.joined(separator: ", "))") }
guard actions.contains(action) else {
    usageError("takes \(actions.joined(separator: ", ")), not '\(action.prefix(40))'")
}
var value = 0.0
if ["seek", "position", "volume"].contains(action) {
    guard arguments.count == 2, let number = Double(arguments[1]), number.isFinite,
          arguments[1].allSatisfy({ $0.isNumber || "+-.".contains($0) }) else {
        usageError("\(action) needs a number")
    }
    if action == "position", number < 0 { usageError("position takes seconds from the start (0 or more)") }
    value = number
    if key { usageError("--key goes with play, pause, play-pause, next, previous or stop, not \(action)") }
} else if arguments.count > 1 {
    usageError(arguments[1].hasPrefix("-") ? "unknown option '\(arguments[1].prefix(40))'" : "unexpected argument '\(arguments[1].prefix(40))'")
}

let connection: Connection
do {
    connection = try Connection(bus: .session)
} catch {
    say("mprisd control: no session bus (\(error.message))", to: stderrFD)
    exit(ExitStatus.failure)
}
// A key binding's press goes as `KeyPress`, which takes a held key's repeats for one press.
let call = Message.methodCall(destination: "org.mprisd.AudioPolicy", path: ObjectPath(trusted: "/org/mprisd/AudioPolicy"),
                              interface: "org.mprisd.AudioPolicy1", member: key ? "KeyPress" : "Control",
                              body: key ? [.string(action)] : [.string(action), .double(value)])
let status: Int32
do {
    // A key press: one second at most (the daemon bounds its wait for the player within it).
    let reply = try connection.callAndWait(call, timeout: .seconds(1))
    if verbose, case .string(let done)? = reply.body.first { say(done, to: stdoutFD) }
    status = ExitStatus.success
} catch {
    switch error.name {
    case DBusError.Name.noReply:
        say("mprisd control: the policy daemon \(connection.peerDescription("org.mprisd.AudioPolicy")) did not answer "
            + "within 1 s (stopped, or too busy)", to: stderrFD)
        status = ExitStatus.failure
    case DBusError.Name.serviceUnknown, DBusError.Name.nameHasNoOwner:
        say("mprisd control: no policy daemon on the session bus (start 'mprisd' or install the user service)", to: stderrFD)
        status = ExitStatus.unavailable
    case DBusError.Name.unknownMethod:
        say("mprisd control: the running daemon is too old for this command (restart it)", to: stderrFD)
        status = ExitStatus.unavailable
    default:
        say("mprisd control: \(error.message)", to: stderrFD)
        status = ExitStatus.failure
    }
}
connection.close()
exit(status)
