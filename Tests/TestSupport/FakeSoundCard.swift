import Foundation
import Synchronization

/// A sound card for machines without one: alsa-lib's external control plugin
/// `Tests/Fixtures/FakeCard/fakecard.c`, compiled once per test process, loaded through an
/// `asound.conf` of the card's own, its state in a text file the test rewrites.
///
/// The control device is `fake` (`ctl.fake { type fakecard state "…" }`); the configuration names
/// the plugin's library by absolute path (`ctl_type.fakecard { lib "…" }`), because alsa-lib's own
/// plugin directory is fixed when alsa-lib is built. It has CARD booleans `Headphone Jack`,
/// `Headset Mic Jack` and `Dock Mute` (not a jack), MIXER `Master Playback Volume` (2 channels,
/// 0–87) and `Master Playback Switch` (2 channels). Programs see it with `environment`
/// (ALSA_CONFIG_PATH): `amixer -D fake contents`. The configuration also defines the `capture`
/// PCM of the output tests (`capture:FILE="…"`: a `file` PCM over `null`).
///
/// Every setter reads the file, changes one line and writes it back atomically (a temporary file
/// renamed over it), which the plugin sees through inotify (IN_MOVED_TO) and reports as
/// value-change events.
public final class FakeSoundCard: Sendable {
    /// The control device's name in the card's configuration.
    public static let control = "fake"

    /// The card's state, as the file holds it.
    public struct State: Sendable, Hashable {
        public var headphones: Bool
        public var headsetMic: Bool
        public var dockMute: Bool
        public var volume: (left: Int, right: Int)
        public var switchOn: (left: Bool, right: Bool)

        public static func == (a: State, b: State) -> Bool {
            a.headphones == b.headphones && a.headsetMic == b.headsetMic && a.dockMute == b.dockMute
                && a.volume == b.volume && a.switchOn == b.switchOn
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(text)
        }

        /// The file's text.
        public var text: String {
            """
            headphone=\(headphones ? 1 : 0)
            headsetmic=\(headsetMic ? 1 : 0)
            dockmute=\(dockMute ? 1 : 0)
            volume=\(volume.left),\(volume.right)
            switch=\(switchOn.left ? 1 : 0),\(switchOn.right ? 1 : 0)

            """
        }

        /// Parses the file's text (missing lines keep these defaults: nothing plugged, 87,87, on).
        public init(text: String) {
            self.init()
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                let values = parts[1].split(separator: ",").compactMap { Int($0) }
                guard let first = values.first else { continue }
                let second = values.count > 1 ? values[1] : first
                switch parts[0] {
                case "headphone": headphones = first != 0
                case "headsetmic": headsetMic = first != 0
                case "dockmute": dockMute = first != 0
                case "volume": volume = (first, second)
                case "switch": switchOn = (first != 0, second != 0)
                default: break
                }
            }
        }

        public init(headphones: Bool = false, headsetMic: Bool = false, dockMute: Bool = false,
                    volume: (left: Int, right: Int) = (87, 87), switchOn: (left: Bool, right: Bool) = (true, true)) {
            self.headphones = headphones
            self.headsetMic = headsetMic
            self.dockMute = dockMute
            self.volume = volume
            self.switchOn = switchOn
        }
    }

    /// The card's directory (configuration, state directory).
    public let directory: String
    /// The asound.conf that defines `ctl.fake` (and `pcm.capture`).
    public let configPath: String
    /// The state file, alone in its directory (the plugin watches the directory).
    public let statePath: String

    /// Creates the card's configuration and state file in a new temporary directory.
    public init(_ initial: State = State(headphones: true, volume: (60, 60))) throws {
        let plugin = try Self.plugin.get()
        let template = NSTemporaryDirectory() + "fakecard-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { throw TestSupportError("fake card: mkdtemp failed") }
        directory = String(decoding: bytes.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: false)
        statePath = directory + "/state/state"
        configPath = directory + "/asound.conf"
        try """
        ctl_type.fakecard { lib "\(plugin)" }
        ctl.\(Self.control) { type fakecard state "\(statePath)" }
        pcm.capture {
            @args [ FILE ]
            @args.FILE { type string }
            type file
            slave { pcm { type null } }
            file $FILE
            format "raw"
        }

        """.write(toFile: configPath, atomically: true, encoding: .utf8)
        try write(initial)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The environment for programs that should see the card: this process's, plus ALSA_CONFIG_PATH.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = configPath
        return environment
    }

    /// The state the file holds now (what the plugin reports; `amixer sset` writes it too).
    public func state() throws -> State {
        State(text: try String(contentsOfFile: statePath, encoding: .utf8))
    }

    /// The state file's bytes (to check that nobody but the test and amixer wrote it).
    public func stateBytes() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: statePath))
    }

    public func setHeadphones(plugged: Bool) throws { try update { $0.headphones = plugged } }
    public func setHeadsetMic(plugged: Bool) throws { try update { $0.headsetMic = plugged } }
    /// The `Dock Mute` CARD boolean: not a jack, so jack monitors must ignore it.
    public func setDockMute(_ on: Bool) throws { try update { $0.dockMute = on } }
    public func setVolume(left: Int, right: Int) throws { try update { $0.volume = (left, right) } }
    public func setSwitch(on: Bool) throws { try update { $0.switchOn = (on, on) } }

    /// Reads the state, changes it, writes it back atomically.
    public func update(_ change: (inout State) -> Void) throws {
        var state = try state()
        change(&state)
        try write(state)
    }

    /// Writes `state` to a temporary file beside the state file and renames it over it.
    public func write(_ state: State) throws {
        let temporary = statePath + ".test"
        try Data(state.text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, statePath) == 0 else {
            throw TestSupportError("fake card: rename \(temporary): \(String(cString: strerror(errno)))")
        }
    }

    /// Runs the real `amixer -D fake ARGUMENTS` with the card's environment.
    public func amixer(_ arguments: [String]) async throws -> ProgramResult {
        try await runProgram("/usr/bin/amixer", ["-D", Self.control] + arguments, environment: environment,
                             timeout: .seconds(10))
    }

    // MARK: - The plugin, compiled once per process

    /// `Tests/Fixtures/FakeCard/fakecard.c`, found from this file's place in the package.
    public static var sourcePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/FakeCard/fakecard.c").path
    }

    /// The compiled plugin's path, or why it could not be built (computed once, on first use).
    public static let plugin: Result<String, TestSupportError> = compilePlugin()

    private static func compilePlugin() -> Result<String, TestSupportError> {
        let template = NSTemporaryDirectory() + "fakecard-plugin-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { return .failure(TestSupportError("fake card: mkdtemp failed")) }
        let directory = String(decoding: bytes.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let library = directory + "/libasound_module_ctl_fakecard.so"
        let process: BackgroundProcess
        do {
            process = try BackgroundProcess(name: "cc", "/usr/bin/cc",
                                            ["-DPIC", "-fPIC", "-shared", "-Wall", "-O1", "-o", library, sourcePath, "-lasound"])
        } catch {
            return .failure(TestSupportError("fake card: cannot run cc: \(error)"))
        }
        guard process.waitUntilExitBlocking() == 0 else {
            return .failure(TestSupportError("fake card: cc failed: \(process.standardError)"))
        }
        return .success(library)
    }
}

