import Foundation

/// The real `/usr/bin/mpris-proxy` (BlueZ 5.66) between a private session bus, where MPRIS
/// players live, and a private system bus with a `FakeBluez`: it registers every `org.mpris*` player
/// with `Media1.RegisterPlayer` on the adapter, forwards calls on its system-bus player objects to
/// the session-bus player, and unregisters a player when its name goes.
///
/// `pressButton` does what bluetoothd does for an AVRCP button: a one-way call (no reply wanted)
/// on mpris-proxy's system-bus object for the player.
public final class MPRISProxy: Sendable {
    public static let executable = "/usr/bin/mpris-proxy"

    public let session: TestBus
    public let system: TestBus
    public let bluez: FakeBluez
    /// mpris-proxy's unique name on the system bus (the destination of button presses).
    public let systemBusName: String
    private let process: BackgroundProcess

    private init(session: TestBus, system: TestBus, bluez: FakeBluez, systemBusName: String,
                 process: BackgroundProcess) {
        self.session = session
        self.system = system
        self.bluez = bluez
        self.systemBusName = systemBusName
        self.process = process
    }

    /// Starts mpris-proxy with `session` and `system` as its buses (`bluez` must run on `system`)
    /// and returns once it is connected to both.
    ///
    /// Players already on the session bus are registered when mpris-proxy sees the adapter;
    /// later ones when their name appears. Wait for that with `bluez.waitForRegisteredPlayer`.
    public static func start(session: TestBus, system: TestBus, bluez: FakeBluez,
                             timeout: Duration = .seconds(10)) async throws -> MPRISProxy {
        guard bluez.bus === system else { throw TestSupportError("the fake bluetoothd must run on the system bus given") }
        let process = try BackgroundProcess(name: "mpris-proxy", executable, [],
                                            environment: TestBus.environment(session: session, system: system))
        do {
            // No event says "connected": poll the buses' credentials of the process, briefly.
            let pid = process.pid
            let deadline = ContinuousClock.now + timeout
            var systemName: String?
            while process.isRunning, ContinuousClock.now < deadline {
                if let name = try await system.connections(ofProcess: pid).first,
                   try await !session.connections(ofProcess: pid).isEmpty {
                    systemName = name
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            guard process.isRunning else {
                throw TestSupportError("mpris-proxy exited with status \(process.exitStatus ?? -1): \(process.standardError)")
            }
            guard let systemName else {
                throw TestSupportError("mpris-proxy did not connect to both buses within \(timeout): \(process.standardError)")
            }
            return MPRISProxy(session: session, system: system, bluez: bluez, systemBusName: systemName,
                              process: process)
        } catch {
            process.stop()
            throw error
        }
    }

    public var pid: Int32 { process.pid }
    public var isRunning: Bool { process.isRunning }
    public var standardError: String { process.standardError }

    /// Sends `member` (`Play`, `Pause`, `Stop`, `Next`, `Previous`) as a one-way call on
    /// `org.mpris.MediaPlayer2.Player` of the player mpris-proxy registered at `player` — by
    /// default the only player currently registered with the fake bluetoothd.
    ///
    /// Returns when the message is on the bus; it says nothing about its effect (check the player).
    public func pressButton(_ member: String, player: String? = nil) async throws {
        let path: String
        if let player {
            path = player
        } else {
            let current = bluez.currentPlayers
            guard current.count == 1 else {
                throw TestSupportError("pressButton(\(member)) needs exactly one registered player, not \(current.map(\.path))")
            }
            path = current[0].path
        }
        // NO_REPLY_EXPECTED set, as bluetoothd sends them. (dbus-send without --print-reply does
        // not set the flag: it only stops waiting.)
        let result = try await runProgram("/usr/bin/busctl",
                                          ["--address=\(system.address)", "call", "--expect-reply=no",
                                           "--allow-interactive-authorization=no", systemBusName, path,
                                           "org.mpris.MediaPlayer2.Player", member],
                                          timeout: .seconds(10))
        guard result.status == 0 else {
            throw TestSupportError("busctl call \(member) to \(systemBusName) \(path) failed: \(result.stderr)")
        }
    }

    /// Kills mpris-proxy (SIGKILL) and waits for it. Idempotent.
    public func stop() {
        process.stop()
    }

    deinit {
        stop()
    }
}
