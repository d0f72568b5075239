import DBus
import Foundation

/// KDE Plasma's global shortcuts as a user has them, headless: the real kglobalaccel (KF5's
/// `kglobalaccel5`) on an X server of its own, grabbing its keys there, and `xdotool` pressing
/// them (XTEST). The Media Controller's registration (plasmashell's applet in 5.27, a kded
/// module in 6: neither can run here) is made the way KGlobalAccel's client library makes it.
public final class KGlobalAccelDesktop: Sendable {
    public static let kglobalaccel = "/usr/bin/kglobalaccel5"
    public static let xdotool = "/usr/bin/xdotool"
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: kglobalaccel) && FileManager.default.isExecutableFile(atPath: xdotool)
            && XvfbDisplay.isAvailable
    }

    static let service = (name: "org.kde.kglobalaccel", path: "/kglobalaccel", interface: "org.kde.KGlobalAccel")
    /// KGlobalAccel's flags of `setShortcut`.
    static let setPresent: UInt32 = 2, isDefault: UInt32 = 8

    private let display: XvfbDisplay
    private let process: BackgroundProcess
    private let connection: Connection
    /// The environment kglobalaccel runs in (and the launchers it starts): `environment` and `DISPLAY`.
    public let environment: [String: String]

    private init(display: XvfbDisplay, process: BackgroundProcess, connection: Connection, environment: [String: String]) {
        self.display = display
        self.process = process
        self.connection = connection
        self.environment = environment
    }

    /// Starts Xvfb and kglobalaccel on `bus`; returns once kglobalaccel owns its name.
    public static func start(bus: TestBus, environment: [String: String], timeout: Duration = .seconds(20)) async throws -> KGlobalAccelDesktop {
        let display = try await XvfbDisplay.start(environment: environment, timeout: timeout)
        var environment = environment
        environment["DISPLAY"] = display.name
        environment["QT_QPA_PLATFORM"] = "xcb"
        let process: BackgroundProcess
        do {
            process = try BackgroundProcess(name: "kglobalaccel5", kglobalaccel, [], environment: environment)
        } catch {
            display.stop()
            throw error
        }
        let connection = try Connection(address: bus.address)
        let desktop = KGlobalAccelDesktop(display: display, process: process, connection: connection, environment: environment)
        let owned = await eventually(timeout: timeout) {
            let reply = try? await connection.call(destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus"),
                                                   interface: "org.freedesktop.DBus", member: "NameHasOwner", [.string(service.name)])
            return reply?.first == .boolean(true)
        }
        guard owned else {
            desktop.stop()
            throw TestSupportError("kglobalaccel5 never owned \(service.name): \(process.standardError.suffix(2000))")
        }
        return desktop
    }

    /// Registers `action` of `component` with `keys` as its default and present, as an app's
    /// `KGlobalAccel::setGlobalShortcut` does.
    public func register(component: String, componentName: String, action: String, actionName: String, keys: [Int]) async throws {
        let id = Self.actionID(component, action, componentName, actionName)
        let codes = DBusValue.array(element: .int32, keys.map { .int32(Int32($0)) })
        _ = try await call("doRegister", [id])
        _ = try await call("setShortcut", [id, codes, .uint32(Self.isDefault)])
        _ = try await call("setShortcut", [id, codes, .uint32(Self.setPresent)])
    }

    /// The keys of `action` of `component` now (Qt key codes).
    public func keys(component: String, action: String) async throws -> [Int] {
        let reply = try await call("shortcut", [Self.actionID(component, action, "", "")])
        guard case .array(_, let codes)? = reply.first else { return [] }
        return codes.compactMap { if case .int32(let code) = $0 { Int(code) } else { nil } }
    }

    /// The actions kglobalaccel knows of `component`.
    public func actions(of component: String) async throws -> [String] {
        let reply = try await call("allActionsForComponent", [.array(element: .string, [.string(component)])])
        guard case .array(_, let ids)? = reply.first else { return [] }
        return ids.compactMap { id in
            guard case .array(_, let parts) = id, parts.count > 1, case .string(let action) = parts[1] else { return nil }
            return action
        }
    }

    /// Presses the key named `keysym` on the X server (`xdotool key`).
    public func press(_ keysym: String) async throws {
        let result = try await runProgram(Self.xdotool, ["key", keysym], environment: environment)
        guard result.status == 0 else { throw TestSupportError("xdotool key \(keysym): \(result.stderr)") }
    }

    static func actionID(_ component: String, _ action: String, _ componentName: String, _ actionName: String) -> DBusValue {
        .array(element: .string, [.string(component), .string(action), .string(componentName), .string(actionName)])
    }

    private func call(_ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(destination: Self.service.name, path: try ObjectPath(Self.service.path),
                                  interface: Self.service.interface, member: member, arguments)
    }

    public var log: String { process.standardError.suffix(3000).description }

    public func stop() {
        process.stop()
        display.stop()
        connection.close()
    }

    deinit { stop() }
}
