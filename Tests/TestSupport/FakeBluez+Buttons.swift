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

extension FakeBluez {
    /// Seeks by `microseconds` as bluetoothd does: a one-way `Seek(x)` on the player registered
    /// at `path` by `destination`, from `org.bluez`'s connection.
    public func seek(by microseconds: Int64, player path: String, of destination: String) async throws {
        let result = try await runProgram("/usr/bin/busctl",
                                          ["--address=\(bus.address)", "call", "--allow-interactive-authorization=no",
                                           "org.bluez", adapterPath, "org.mprisd.FakeBluez1", "Seek", "sox",
                                           destination, path, String(microseconds)],
                                          timeout: .seconds(10))
        guard result.status == 0 else {
            throw TestSupportError("seeking on \(destination) \(path) failed: \(result.stderr)")
        }
    }

    /// Changes the headset's repeat or shuffle setting as bluetoothd does: from `org.bluez`'s
    /// own connection, a one-way `Properties.Set` of `name` (`LoopStatus`, `Shuffle`) on the
    /// player registered at `path` by `destination`. `value` is busctl's type and value
    /// (`["s", "Track"]`, `["b", "true"]`).
    public func setSetting(_ name: String, _ value: [String], player path: String, of destination: String) async throws {
        let result = try await runProgram("/usr/bin/busctl",
                                          ["--address=\(bus.address)", "call", "--allow-interactive-authorization=no",
                                           "org.bluez", adapterPath, "org.mprisd.FakeBluez1", "SetSetting", "sosv",
                                           destination, path, name] + value,
                                          timeout: .seconds(10))
        guard result.status == 0 else {
            throw TestSupportError("setting \(name) on \(destination) \(path) failed: \(result.stderr)")
        }
    }
}

extension FakeBluez {
    /// The adapter unplugged and plugged in again: `RemoveAdapterWithDevices` (`InterfacesRemoved`),
    /// then the adapter added and set up as at start (`InterfacesAdded`, `Media1` with
    /// `RegisterPlayer`). What was registered on it is gone with it, as in bluetoothd. Returns once
    /// the adapter is back.
    public func replugAdapter(timeout: Duration = .seconds(10)) async throws {
        try await request(["op": "replug"], what: "replugging \(adapterPath)", timeout: timeout)
    }
}
