import DBus
import Foundation
import Synchronization

/// A real browser playing a page's `<audio>` in a loop, headless, on a test bus and an audio
/// server: Debian's Chromium (`--headless=new --no-sandbox`, which works as root and publishes
/// MPRIS) or Firefox ESR (`--headless`, with a profile whose prefs allow autoplay). The page comes
/// from a `PageServer` on 127.0.0.1 (a secure origin for both). The browser's whole process group
/// is killed when the object goes.
///
/// What they do, measured (desktop notes): Chromium owns `org.mpris.MediaPlayer2.chromium.instance<pid>`
/// from its start and plays through a utility process, a child of the MPRIS owner; Firefox takes
/// `…firefox.instance_1_<N>` once media plays, plays from the MPRIS owner's process, and applies
/// MPRIS `Volume` to its own stream's volume (one value for all channels).
public final class BrowserPlayer: MPRISTestPlayer {
    public enum Kind: String, Sendable {
        case chromium
        case firefox

        var executable: String {
            switch self {
            case .chromium: "/usr/lib/chromium/chromium"
            case .firefox: "/usr/lib/firefox-esr/firefox-esr"
            }
        }
    }

    public let kind: Kind
    public let process: BackgroundProcess
    public let control: Connection
    public let uniqueName: String
    public let busName: String
    private let profile: URL

    private init(kind: Kind, process: BackgroundProcess, control: Connection, uniqueName: String, busName: String,
                 profile: URL) {
        self.kind = kind
        self.process = process
        self.control = control
        self.uniqueName = uniqueName
        self.busName = busName
        self.profile = profile
    }

    deinit {
        process.stop()
        control.close()
        try? FileManager.default.removeItem(at: profile)
    }

    /// Whether the browser is installed (tests skip otherwise).
    public static func isAvailable(_ kind: Kind) -> Bool {
        FileManager.default.isExecutableFile(atPath: kind.executable)
    }

    /// Starts `kind` on `bus` playing `url` and returns once its MPRIS name is on the bus and
    /// says `Playing`. `environment` holds the audio server's variables (and `PULSE_SINK` to
    /// play on a sink other than the default).
    public static func start(_ kind: Kind, bus: TestBus, url: String, environment: [String: String],
                             timeout: Duration = .seconds(40)) async throws -> BrowserPlayer {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("mprisd-\(kind)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let arguments: [String]
        switch kind {
        case .chromium:
            arguments = ["--no-sandbox", "--headless=new", "--user-data-dir=\(profile.path)", "--no-first-run",
                         "--disable-gpu", "--password-store=basic", "--autoplay-policy=no-user-gesture-required", url]
        case .firefox:
            try firefoxPreferences.write(to: profile.appendingPathComponent("user.js"), atomically: true, encoding: .utf8)
            arguments = ["--profile", profile.path, "--no-remote", "--new-instance", "--headless", url]
        }
        // Its own HOME: nothing of the machine's user (caches, a Firefox profile) is read or written.
        var variables = TestBus.environment(session: bus, system: nil).merging(environment) { _, new in new }
        variables["HOME"] = profile.path
        let process = try BackgroundProcess(name: kind.rawValue, kind.executable, arguments, environment: variables)
        do {
            let control = try Connection(address: bus.address)
            guard let found = try await MPRISTestPlayers.waitForName(ofProcess: process.pid, on: bus, control: control,
                                                                    timeout: timeout, isRunning: { process.isRunning }) else {
                control.close()
                throw TestSupportError("\(kind) took no MPRIS name within \(timeout): \(process.standardError.suffix(2000))")
            }
            let browser = BrowserPlayer(kind: kind, process: process, control: control, uniqueName: found.unique,
                                        busName: found.busName, profile: profile)
            guard await browser.waitForStatus("Playing", timeout: timeout) else {
                throw TestSupportError("\(kind) never said Playing: \(process.standardError.suffix(2000))")
            }
            return browser
        } catch {
            process.stop()
            try? FileManager.default.removeItem(at: profile)
            throw error
        }
    }

    /// Autoplay allowed without a gesture or focus, the microphone without a prompt, no first-run
    /// pages or telemetry (the test machine has no network but loopback).
    private static let firefoxPreferences = """
        user_pref("media.autoplay.default", 0);
        user_pref("media.autoplay.blocking_policy", 0);
        user_pref("media.autoplay.block-webaudio", false);
        user_pref("media.block-autoplay-until-in-foreground", false);
        user_pref("media.navigator.permission.disabled", true);
        user_pref("browser.shell.checkDefaultBrowser", false);
        user_pref("browser.aboutwelcome.enabled", false);
        user_pref("datareporting.policy.dataSubmissionEnabled", false);
        user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
        user_pref("app.update.enabled", false);

        """
}

/// Serves one folder on 127.0.0.1 (Python's `http.server`, on a port the system picks): a page
/// with a looping `<audio>` of a tone, for the browsers. Stopped when the object goes.
public final class PageServer: Sendable {
    public let directory: URL
    /// `http://127.0.0.1:PORT/`.
    public let base: String
    private let process: BackgroundProcess

    private init(directory: URL, base: String, process: BackgroundProcess) {
        self.directory = directory
        self.base = base
        self.process = process
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The page's address.
    public var tonePage: String { base + "tone.html" }

    /// A server for a page playing a `seconds`-long tone in a loop (longer than Chromium's ~5 s
    /// below which media is transient and not controllable).
    public static func tone(seconds: Int = 30) async throws -> PageServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mprisd-page-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try WAVFile.sine(amplitude: 0.3, seconds: seconds, frequency: 400),
                                         toPath: directory.appendingPathComponent("tone.wav").path)
        try """
            <!doctype html><html><head><title>tone</title></head><body>
            <audio id="tone" src="tone.wav" loop autoplay></audio>
            <script>document.getElementById("tone").play().catch(e => document.title = "blocked: " + e);</script>
            </body></html>

            """.write(to: directory.appendingPathComponent("tone.html"), atomically: true, encoding: .utf8)
        let port = PortLine()
        let process = try BackgroundProcess(name: "http.server", "/usr/bin/python3",
                                            ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                                             "--directory", directory.path],
                                            onLine: { port.read($0) })
        guard await eventually(timeout: .seconds(10), { port.value != nil }), let number = port.value else {
            process.stop()
            throw TestSupportError("http.server said no port: \(process.standardError)")
        }
        return PageServer(directory: directory, base: "http://127.0.0.1:\(number)/", process: process)
    }
}

/// The port in http.server's first line ("Serving HTTP on 127.0.0.1 port 41235 (…) ...").
private final class PortLine: Sendable {
    private let port = Mutex<Int?>(nil)

    var value: Int? { port.withLock { $0 } }

    func read(_ line: String) {
        guard let range = line.range(of: " port ") else { return }
        let digits = line[range.upperBound...].prefix { $0.isNumber }
        if let number = Int(digits) { port.withLock { $0 = $0 ?? number } }
    }
}
