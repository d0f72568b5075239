// swift-tools-version:6.0
// The benchmarks: a package of their own, beside the product's (as swift-nio keeps its
// benchmarks), so that building and testing mprisd builds none of them. They depend on the
// product by path: the Swift programs on its DBus and SessionCore libraries, the C programs on
// libdbus and libpulse directly (their own small module maps below), through the small C
// libraries of Shims/ that hold what they would otherwise each repeat: the clock (BenchClock), the
// libpulse main loop (BenchPulse), the session-bus client and server (BenchDBus). The scripts
// beside this file build what they run from here (`swift build -c release --product NAME`,
// products of mprisd included) and write their results to BENCHMARKS.md: see README.md.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "mprisd-benchmarks",
    dependencies: [.package(name: "mprisd", path: "..")],
    targets: [
        .systemLibrary(name: "CDBusBench", path: "Shims/CDBusBench", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CPulseBench", path: "Shims/CPulseBench", providers: [.apt(["libpulse-dev"])]),
        .target(name: "BenchClock", path: "Shims/BenchClock"),
        .target(name: "BenchPulse", dependencies: ["BenchClock", "CPulseBench"], path: "Shims/BenchPulse",
                linkerSettings: [.linkedLibrary("pulse")]),
        .target(name: "BenchDBus", dependencies: ["CDBusBench"], path: "Shims/BenchDBus"),

        .executableTarget(name: "bench-echo-server", dependencies: [.product(name: "DBus", package: "mprisd")],
                          path: "EchoServer", swiftSettings: strict),
        .executableTarget(name: "bench-echo-server-c", dependencies: ["BenchDBus"], path: "EchoServerC"),
        .executableTarget(name: "bench-echo-client", dependencies: ["BenchClock", "BenchDBus"], path: "EchoClient"),
        .executableTarget(name: "bench-unplug", dependencies: [.product(name: "DBus", package: "mprisd")],
                          path: "UnplugToPause", swiftSettings: strict),
        .executableTarget(name: "bench-session-storm", dependencies: [.product(name: "SessionCore", package: "mprisd")],
                          path: "SessionStorm", swiftSettings: strict),
        .executableTarget(name: "bench-mpris-server-c", dependencies: ["BenchDBus"], path: "MPRISServerC"),
        .executableTarget(name: "bench-mpris-client", dependencies: ["BenchClock", "BenchDBus"], path: "MPRISClient"),
        .executableTarget(name: "bench-policy-client", dependencies: ["BenchClock", "BenchDBus"], path: "PolicyClient",
                          linkerSettings: [.linkedLibrary("pthread")]),
        .executableTarget(name: "bench-soak", dependencies: ["BenchDBus"], path: "Soak"),
        .executableTarget(name: "bench-pulse-watch", dependencies: ["BenchClock", "BenchPulse"], path: "PulseWatch"),
        .executableTarget(name: "bench-duck-client", dependencies: ["BenchClock", "BenchDBus"], path: "DuckClient"),
        .executableTarget(name: "bench-pulse-streams", dependencies: ["BenchPulse"], path: "PulseStreams"),
        .executableTarget(name: "bench-implicit-watch", dependencies: ["BenchClock", "BenchPulse"], path: "ImplicitWatch"),
        .executableTarget(name: "bench-implicit-trigger", dependencies: ["BenchClock", "BenchPulse"], path: "ImplicitTrigger"),
    ]
)
