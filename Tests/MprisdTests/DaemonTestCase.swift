import DBus
import Foundation
import TestSupport
import XCTest

/// The policy daemon end to end: the real `mprisd` binary owning `org.mprisd.AudioPolicy` on the
/// test's private bus, real clients (`mprisd run`, `mprisd play`, mpv with mpv-mpris, `mprisd
/// status`), observed only from outside — MPRIS properties, the status document, exit statuses and
/// log lines.
///
/// Every program gets the test's own XDG directories (silent mode and the route pick are state
/// files) and a system bus: the test's private one when it made one (`useSystemBus`), else an
/// address that does not exist, so nothing of the machine's logind or BlueZ is ever seen.
class DaemonTestCase: PlayerTestCase {
    /// The running daemon (the last one started).
    private(set) var daemon: BackgroundProgram?
    /// The private system bus, if the test asked for one before starting the daemon.
    private(set) var systemBus: TestBus?
    private var programs: [BackgroundProgram] = []
    private var mpvs: [MPVPlayer] = []
    private var tone: String?

    override func tearDown() {
        for program in programs { program.kill() }
        programs.removeAll()
        for mpv in mpvs { mpv.kill() }
        mpvs.removeAll()
        daemon = nil
        observerConnection = nil
        systemBus?.stop()
        systemBus = nil
        super.tearDown()
    }

    /// A private system bus for the daemon (before `startDaemon`).
    func useSystemBus() throws -> TestBus {
        let bus = try TestBus(.system)
        systemBus = bus
        return bus
    }

    /// The environment of every program of the test: the test bus as session bus, the private
    /// system bus or none, the test's XDG directories, no colour, no inherited logind session.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = TestBus.environment(session: bus, system: systemBus)
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus?.address ?? "unix:path=/nonexistent"
        for (key, value) in userDirectories { environment[key] = value }
        environment["XDG_SESSION_ID"] = nil
        environment["NO_COLOR"] = "1"
        environment["JOURNAL_STREAM"] = nil
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    // MARK: The daemon

    /// Starts `mprisd --verbose ARGUMENTS` and returns once it owns `org.mprisd.AudioPolicy` and
    /// has logged that it serves it (its monitors and the player tracker are started by then).
    /// `wrapper`: a command that ends by exec'ing the daemon given as its last arguments (a
    /// private mount namespace, `StateDirectoryTrouble`), so that the program's pid is the daemon's.
    @discardableResult
    func startDaemon(_ arguments: [String] = [], environment extra: [String: String] = [:], wrapper: [String] = [],
                     file: StaticString = #filePath, line: UInt = #line) async throws -> BackgroundProgram {
        let command = wrapper + [Products.path("mprisd"), "--verbose"] + arguments
        let program = try BackgroundProgram(command[0], Array(command.dropFirst()), environment: environment(extra))
        programs.append(program)
        daemon = program
        let serving = await eventually(timeout: .seconds(10)) {
            !program.isRunning || program.stderr.contains("serving org.mprisd.AudioPolicy")
        }
        guard serving, program.isRunning else {
            throw TestSupportError("the daemon did not start: \(program.stderr)")
        }
        // `serving org.mprisd.AudioPolicy as :1.N`: the name must be owned by that connection.
        let unique = program.stderr.split(separator: "\n").first { $0.contains("serving org.mprisd.AudioPolicy as ") }
            .flatMap { $0.split(separator: " ").last.map(String.init) }
        let owned = try await eventually(timeout: .seconds(5)) { try await self.policyOwner() == unique }
        XCTAssertTrue(owned, "org.mprisd.AudioPolicy is not owned by the daemon (\(unique ?? "?")): \(program.stderr)",
                      file: file, line: line)
        return program
    }

    /// The unique name owning `org.mprisd.AudioPolicy`, nil when nobody does.
    func policyOwner() async throws -> String? {
        try await owner(of: Self.policyName)
    }

    /// The unique name owning `name` on the test's bus, nil when nobody does.
    func owner(of name: String) async throws -> String? {
        do {
            let reply = try await observer().call(destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus"),
                                                  interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                                  [.string(name)], timeout: .seconds(5))
            guard case .string(let owner)? = reply.first else { return nil }
            return owner
        } catch let error as DBusError where error.name == DBusError.Name.nameHasNoOwner {
            return nil
        }
    }

    // policyName and policyPath: PlayerTestCase (Fuzz/DaemonProgram.swift).
    static let policyInterface = "org.mprisd.AudioPolicy1"
    static let sessionInterface = "org.mprisd.AudioSession1"

    private var observerConnection: Connection?

    /// One connection of the test's own for reading state (closed in tearDown).
    func observer() throws -> Connection {
        if let observerConnection { return observerConnection }
        let connection = try connect()
        observerConnection = connection
        return connection
    }

    /// Waits until the daemon logged a line containing every fragment.
    func waitForDaemonLog(_ fragments: String..., timeout: Duration = .seconds(5),
                          file: StaticString = #filePath, line: UInt = #line) async {
        let daemon = self.daemon
        let seen = await eventually(timeout: timeout) {
            (daemon?.stderr ?? "").split(separator: "\n").contains { line in fragments.allSatisfy { line.contains($0) } }
        }
        XCTAssertTrue(seen, "the daemon never logged \(fragments): \(daemon?.stderr ?? "no daemon")", file: file, line: line)
    }

    // MARK: The status document

    /// The daemon's status through `GetStatus` (fast enough to poll).
    func busStatus() async throws -> DaemonStatus {
        let reply = try await observer().call(destination: Self.policyName, path: ObjectPath(Self.policyPath),
                                              interface: Self.policyInterface, member: "GetStatus", timeout: .seconds(5))
        guard case .string(let json)? = reply.first else { throw TestSupportError("GetStatus answered \(reply)") }
        return try DaemonStatus.decode(json)
    }

    /// `mprisd status --json`, as a user's script reads it.
    func cliStatus(file: StaticString = #filePath, line: UInt = #line) async throws -> DaemonStatus {
        let result = try await mprisd(["status", "--json"])
        XCTAssertEqual(result.status, 0, "mprisd status --json: \(result.stderr)", file: file, line: line)
        return try DaemonStatus.decode(result.stdout)
    }

    /// Waits until the status (read through `GetStatus`) satisfies `condition`; returns the last
    /// status read.
    @discardableResult
    func waitForStatus(_ what: String, timeout: Duration = .seconds(5), file: StaticString = #filePath, line: UInt = #line,
                       _ condition: @escaping (DaemonStatus) -> Bool) async throws -> DaemonStatus {
        var last: DaemonStatus?
        let held = await eventually(timeout: timeout) {
            guard let status = try? await self.busStatus() else { return false }
            last = status
            return condition(status)
        }
        XCTAssertTrue(held, "timed out waiting until \(what); status: \(last.map { "\($0)" } ?? "none")\ndaemon: \(daemon?.stderr ?? "")",
                      file: file, line: line)
        guard let last else { throw TestSupportError("no status while waiting until \(what)") }
        return last
    }

    // MARK: Clients

    /// Starts `mprisd run ARGUMENTS` in the background.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> BackgroundProgram {
        let program = try BackgroundProgram(Products.path("mprisd"), ["run"] + arguments, environment: environment(extra))
        programs.append(program)
        return program
    }

    /// Runs `mprisd ARGUMENTS` to completion.
    func mprisd(_ arguments: [String], environment extra: [String: String] = [:],
                timeout: Duration = .seconds(20)) async throws -> ProgramResult {
        try await runProgram(Products.path("mprisd"), arguments, environment: environment(extra), timeout: timeout)
    }

    /// `mprisd play --device null --name NAME` of a long track, with this test's environment;
    /// returns once it plays and the daemon has its session active.
    func startPlay(name: String, seconds: Double = 15, environment extra: [String: String] = [:]) async throws -> BackgroundProgram {
        let player = try play(["--device", "null", "--name", name, try track("\(name).wav", seconds: seconds)],
                              environment: environment(extra))
        try await waitUntil("\(name) plays") { try await self.playerctl("-p", name, "status") == "Playing" }
        try await waitForStatus("the daemon has \(name)'s session active") { status in
            status.sessions.contains { $0.name == name && $0.active }
        }
        XCTAssertTrue(player.stderr.contains("the policy daemon decides"), player.stderr)
        return player
    }

    /// Starts mpv playing a looping tone (or paused on it) and returns once the daemon tracks it
    /// with that status.
    func startMPV(paused: Bool = false, output: [String] = ["--ao=null"],
                  environment: [String: String] = [:]) async throws -> MPVPlayer {
        try XCTSkipUnless(MPVPlayer.isAvailable, "mpv and mpv-mpris are not installed")
        let file: String
        if let tone {
            file = tone
        } else {
            file = path("tone.wav")
            try WAVFile.writeCountingTone(seconds: 1, to: file)
            tone = file
        }
        let mpv = try await MPVPlayer.start(bus: bus, file: file, paused: paused, output: output, environment: environment)
        mpvs.append(mpv)
        let expected = paused ? "Paused" : "Playing"
        try await waitForStatus("the daemon tracks \(mpv.busName) \(expected)") { status in
            status.players.contains { $0.busName == mpv.busName && $0.status == expected }
        }
        return mpv
    }

    /// Sets mpv's `Volume` as a user would and returns once mpv has *announced* it
    /// (`PropertiesChanged` on the bus, which the daemon follows), with the exact value announced.
    ///
    /// mpv-mpris answers `Get` with the new value at once but announces it later (20–120 ms seen);
    /// until then the daemon, which follows the announcements, still has the old value and would
    /// save that one as the volume to restore.
    func setVolumeAnnounced(_ mpv: MPVPlayer, _ volume: Double) async throws -> Double {
        let announced = EventRecord<Double>()
        let rule = MatchRule(sender: mpv.uniqueName, interface: "org.freedesktop.DBus.Properties",
                             member: "PropertiesChanged", path: try ObjectPath("/org/mpris/MediaPlayer2"))
        let subscription = try await observer().subscribe(rule) { signal in
            guard signal.body.count >= 2, case .dictionary(_, _, let entries) = signal.body[1] else { return }
            for entry in entries {
                if entry.key == .string("Volume"), case .variant(.double(let value)) = entry.value { announced.append(value) }
            }
        }
        defer { subscription.cancel() }
        try await mpv.setVolume(volume)
        return try await announced.wait(for: "mpv to announce Volume \(volume)", timeout: .seconds(5)) { values in
            values.first { abs($0 - volume) < 0.001 }
        }
    }

    /// Asserts that mpv's `PlaybackStatus` is `status` now and stays so for `duration`.
    func assertStays(_ mpv: MPVPlayer, _ status: String, for duration: Duration = .milliseconds(600),
                     file: StaticString = #filePath, line: UInt = #line) async throws {
        var last = status
        let held = try await holds(for: duration) {
            last = try await mpv.playbackStatus()
            return last == status
        }
        XCTAssertTrue(held, "\(mpv.busName) changed to \(last)\ndaemon: \(daemon?.stderr ?? "")", file: file, line: line)
    }
}

/// The status document (`GetStatus`, `mprisd status --json`) as docs/audio-policy-api.md
/// documents it, decoded independently of the product's own type.
struct DaemonStatus: Decodable, CustomStringConvertible {
    struct Port: Decodable {
        var id: String
        var name: String
        var type: String
    }

    struct Route: Decodable {
        var override: String?
        var outputs: [Port]
        var available: [Port]
    }

    struct Session: Decodable {
        var id: UInt64
        var owner: String
        var name: String
        var category: String
        var mode: String
        var options: [String]
        var active: Bool
        var interrupted: Bool
        var ducked: Bool
        /// The sinks its streams play on; absent where no audio server is followed.
        var audibleOn: [String]?
    }

    struct Player: Decodable {
        var busName: String
        var owner: String
        var status: String
        var session: UInt64
        var pausedByPolicy: Bool
        var ducked: Bool
        /// `spokenAudio` or `default` (issue 15); absent from older daemons.
        var mode: String?
        var modeReason: String?
        /// The sinks its streams play on; absent where no audio server is followed.
        var audibleOn: [String]?
        /// Its playback streams with their volume and mute; absent where no server is followed.
        var streams: [PlayerStream]?
    }

    struct PlayerStream: Decodable, Equatable {
        var index: UInt32
        var sink: String?
        var volume: Double
        var muted: Bool
    }

    var version: Int
    var silentMode: Bool
    var locked: Bool
    var outputVolume: Double?
    var route: Route
    /// An app without our API and its implicit session (issue 15).
    struct App: Decodable {
        var application: String
        var appClass: String
        var reason: String
        var session: UInt64?
        var state: String
        var streams: [String]
        var present: Bool
    }

    /// The player the keys act on (issue 16); absent: none.
    struct ActivePlayer: Decodable {
        var busName: String
        var owner: String
        var status: String
        var reason: String
        var since: Double?
        var pinned: Bool
    }

    /// The audio server the daemon follows; absent from a daemon that follows none.
    struct AudioServer: Decodable {
        var connected: Bool
        var name: String?
        /// "mprisd" or "WirePlumber" while connected.
        var deviceLossPausedBy: String?
    }

    /// One of the server's streams, as the daemon shows it.
    struct Stream: Decodable {
        var direction: String
        var index: UInt32
        var application: String?
        var role: String?
        /// The sink (or source) it plays on.
        var device: String?
        var volume: Double
        /// What the daemon does to it, or who does ("ducked by WirePlumber …").
        var action: String?
    }

    var sessions: [Session]
    var players: [Player]
    var apps: [App]?
    var activePlayer: ActivePlayer?
    var audioServer: AudioServer?
    var streams: [Stream]?
    /// Why the journal cannot be written, nil while it can.
    var journalProblem: String?
    var json = ""

    private enum CodingKeys: String, CodingKey {
        case version, silentMode, locked, outputVolume, route, sessions, players, apps, activePlayer, audioServer, streams,
             journalProblem
    }

    static func decode(_ json: String) throws -> DaemonStatus {
        do {
            var status = try JSONDecoder().decode(DaemonStatus.self, from: Data(json.utf8))
            status.json = json
            return status
        } catch {
            throw TestSupportError("not a status document (\(error)): \(json)")
        }
    }

    func session(named name: String) -> Session? { sessions.first { $0.name == name } }
    func player(_ busName: String) -> Player? { players.first { $0.busName == busName } }
    func app(_ name: String) -> App? { apps?.first { $0.application == name && $0.present } }
    func stream(of application: String) -> Stream? { streams?.first { $0.application == application && $0.direction == "playback" } }

    var description: String { json }
}
