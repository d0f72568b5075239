import DBus
import Foundation

/// A real mpv (`--ao=null --vo=null`, so it plays in real time without a sound card) with Debian's
/// mpv-mpris script, on a test bus: the foreign MPRIS player the policy daemon has to handle.
///
/// The test plays the user: it reads and drives the player through its MPRIS interface on a
/// connection of its own. mpv is killed (SIGKILL, with its process group) when the object goes.
public final class MPVPlayer: MPRISTestPlayer {
    public static let executable = "/usr/bin/mpv"
    /// Where Debian's `mpv-mpris` package puts the script.
    public static let script = "/usr/lib/mpv-mpris/mpris.so"

    public let process: BackgroundProcess
    /// The test's own connection to the bus, for playing the user.
    public let control: Connection
    /// mpv's unique name on the bus.
    public let uniqueName: String
    /// The MPRIS name it took (`org.mpris.MediaPlayer2.mpv`, or `….instance…` for a second one).
    public let busName: String

    private init(process: BackgroundProcess, control: Connection, uniqueName: String, busName: String) {
        self.process = process
        self.control = control
        self.uniqueName = uniqueName
        self.busName = busName
    }

    deinit {
        process.stop()
        control.close()
    }

    /// Whether mpv and mpv-mpris are installed (tests skip otherwise).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: executable) && FileManager.default.fileExists(atPath: script)
    }

    /// Starts mpv on `bus` playing `file` in a loop (or paused on it), and returns once its MPRIS
    /// name is on the bus. `output` replaces `--ao=null` (`["--ao=pulse", "--audio-device=pulse/SINK"]`
    /// to play through an audio server named in `environment`). The deadline is generous: under
    /// the ThreadSanitizer pass on two loaded cores an mpv took more than 10 s to publish its name.
    public static func start(bus: TestBus, file: String, paused: Bool = false, output: [String] = ["--ao=null"],
                             environment: [String: String] = [:], timeout: Duration = .seconds(30)) async throws -> MPVPlayer {
        var arguments = ["--no-config", "--idle=yes"] + output + ["--vo=null", "--no-terminal",
                         "--script=\(script)", "--loop-file=inf"]
        if paused { arguments.append("--pause") }
        arguments.append(file)
        let process = try BackgroundProcess(name: "mpv", executable, arguments,
                                            environment: TestBus.environment(session: bus, system: nil)
                                                .merging(environment) { _, new in new })
        do {
            let control = try Connection(address: bus.address)
            if let found = try await MPRISTestPlayers.waitForName(ofProcess: process.pid, on: bus, control: control,
                                                                 timeout: timeout, isRunning: { process.isRunning }) {
                return MPVPlayer(process: process, control: control, uniqueName: found.unique, busName: found.busName)
            }
            control.close()
            throw TestSupportError("mpv took no MPRIS name within \(timeout) (status \(process.exitStatus.map(String.init) ?? "running")): \(process.standardError)")
        } catch {
            process.stop()
            throw error
        }
    }

    public var pid: Int32 { process.pid }
    public var isRunning: Bool { process.isRunning }

    /// Kills mpv (SIGKILL) and waits until it is reaped.
    public func kill() { process.stop() }
}
