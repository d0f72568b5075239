import Foundation

/// A headless X server of the test's own (`Xvfb`) on a display number no other X server of the
/// machine uses, for the desktop programs that need one (gsd-media-keys, kglobalaccel) and for
/// `xdotool` to press keys on (XTEST).
public final class XvfbDisplay: Sendable {
    public static let xvfb = "/usr/bin/Xvfb"
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: xvfb) }

    /// `:N`, for `DISPLAY`.
    public let name: String
    private let process: BackgroundProcess

    private init(name: String, process: BackgroundProcess) {
        self.name = name
        self.process = process
    }

    /// Starts the server and returns once it listens on its socket.
    public static func start(environment: [String: String], timeout: Duration = .seconds(20)) async throws -> XvfbDisplay {
        guard let number = (40...200).first(where: { number in
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") && !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        }) else { throw TestSupportError("no free X display number in 40…200") }
        let process = try BackgroundProcess(name: "Xvfb", xvfb, [":\(number)", "-nolisten", "tcp", "-screen", "0", "640x480x24"],
                                            environment: environment)
        guard await eventually(timeout: timeout, { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") }) else {
            process.stop()
            throw TestSupportError("Xvfb :\(number) never listened: \(process.standardError)")
        }
        return XvfbDisplay(name: ":\(number)", process: process)
    }

    public func stop() { process.stop() }

    deinit { stop() }
}
