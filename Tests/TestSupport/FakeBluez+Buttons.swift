import Foundation

extension FakeBluez {
    /// Presses an AVRCP button as bluetoothd does: from `org.bluez`'s own connection, a one-way
    /// call (NO_REPLY_EXPECTED) of `member` (`Play`, `Pause`, `Stop`, `Next`, `Previous`) on
    /// `org.mpris.MediaPlayer2.Player` of the player registered at `path` by `destination` (the
    /// registering connection's unique name).
    ///
    /// Returns when the mock has sent the call; it says nothing about its effect.
    public func press(_ member: String, player path: String, of destination: String) async throws {
        let result = try await runProgram("/usr/bin/busctl",
                                          ["--address=\(bus.address)", "call", "--allow-interactive-authorization=no",
                                           "org.bluez", adapterPath, "org.mprisd.FakeBluez1", "Press", "sos",
                                           destination, path, member],
                                          timeout: .seconds(10))
        guard result.status == 0 else {
            throw TestSupportError("pressing \(member) on \(destination) \(path) failed: \(result.stderr)")
        }
    }
}
