import Foundation

/// The files a PipeWireServer runs with, all under its own directory: the null sink and source
/// (`pipewire.conf.d` fragments), pipewire-pulse's client limit, the clients' client.conf, and
/// the servers' environment that points every XDG directory there.
extension PipeWireServer {
    /// `Tests/Fixtures/PipeWire`, found from this file's place in the package: the null sink's and
    /// the null source's fragments, files of their own so that Benchmarks/audio-servers.sh starts
    /// its PipeWire with the very same devices. Their node names are `sinkName` and `sourceName`.
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/PipeWire")
    }
    /// The fragments of `fixtures` every server gets: the sink and the source.
    static let deviceFragments = ["10-null-sink.conf", "11-null-source.conf"]

    var home: URL { directory.appendingPathComponent("home") }
    var config: URL { directory.appendingPathComponent("config") }
    var clientConfig: URL { directory.appendingPathComponent("client.conf") }

    func writeFiles() throws {
        let fm = FileManager.default
        try fm.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true,
                               attributes: [.posixPermissions: 0o700])
        try fm.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        try fm.createDirectory(at: home, withIntermediateDirectories: true)
        let fragments = config.appendingPathComponent("pipewire/pipewire.conf.d")
        try fm.createDirectory(at: fragments, withIntermediateDirectories: true)
        for name in Self.deviceFragments {
            try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
                .write(to: fragments.appendingPathComponent(name), options: .atomic)
        }
        // pipewire-pulse takes 64 clients by default (each paplay is one): room for 200-stream tests.
        let pulseFragments = config.appendingPathComponent("pipewire/pipewire-pulse.conf.d")
        try fm.createDirectory(at: pulseFragments, withIntermediateDirectories: true)
        try """
        pulse.properties = {
            server.address = [ { address = "unix:native" max-clients = \(Self.maxClients) } ]
        }

        """.write(to: pulseFragments.appendingPathComponent("10-clients.conf"), atomically: true, encoding: .utf8)
        if !wirePlumberSettings.isEmpty {
            let settings = config.appendingPathComponent("wireplumber/wireplumber.conf.d")
            try fm.createDirectory(at: settings, withIntermediateDirectories: true)
            let lines = wirePlumberSettings.sorted { $0.key < $1.key }.map { "    \($0.key) = \($0.value)" }
            try "wireplumber.settings = {\n\(lines.joined(separator: "\n"))\n}\n"
                .write(to: settings.appendingPathComponent("50-mprisd-test.conf"), atomically: true, encoding: .utf8)
        }
        if !wirePlumberFragments.isEmpty {
            let fragments = config.appendingPathComponent("wireplumber/wireplumber.conf.d")
            try fm.createDirectory(at: fragments, withIntermediateDirectories: true)
            for (name, text) in wirePlumberFragments {
                try text.write(to: fragments.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
        }
        try "autospawn = no\ncookie-file = \(home.appendingPathComponent("cookie").path)\n"
            .write(to: clientConfig, atomically: true, encoding: .utf8)
    }

    /// The servers' environment: the private directories, the test's bus, nothing of the machine's
    /// audio set-up.
    var serverEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("PULSE_") || key.hasPrefix("PIPEWIRE_") || key.hasPrefix("WIREPLUMBER_") {
            environment[key] = nil
        }
        for key in ["ALSA_CONFIG_PATH", "DISPLAY", "WAYLAND_DISPLAY", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE"] {
            environment[key] = nil
        }
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment["PIPEWIRE_RUNTIME_DIR"] = runtimeDirectory.path
        environment["XDG_CONFIG_HOME"] = config.path
        environment["XDG_STATE_HOME"] = stateDirectory.path
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        // No system bus: WirePlumber's Bluetooth and logind parts find nothing, as on a server.
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/mprisd-no-system-bus"
        environment["PULSE_CLIENTCONFIG"] = clientConfig.path
        return environment
    }
}
