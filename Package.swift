// swift-tools-version:6.0
// mprisd — audio sessions and media remote control for Linux.
//
// Products for apps: AudioPolicyClient (an app's audio sessions, arbitrated by the daemon when it
// runs or can be D-Bus-activated, in-process otherwise), RemoteControl (media keys and now-playing
// over MPRIS), SessionCore (the session model), DBus (the binding). The daemon is AudioPolicyDaemon,
// a module of the executable only: no app links it. Examples/ holds two apps written against the
// products alone (a podcast player, a VoIP call), built with everything else.
//
// Dependencies point one way:
//   mprisd → AudioPolicyDaemon → AudioPolicyClient (the wire format), SystemContext, RemoteControl,
//            PolicyJournal (what the daemon changed in other programs: entries, file, lock) →
//            AudioServer, SystemContext, DBus; AppClassification (what counts as a call, a prompt,
//            music: the apps file, known apps, media roles, the classifier) → AudioServer,
//            SessionCore, SystemContext; mprisd → AppClassification (`mprisd apps`);
//            MPRISDirectory (the one watch of the MPRIS players, the calls made to them) → DBus,
//            RemoteControl, SessionCore, Posix
//   mprisd → Player → AudioPolicyClient, SystemContext, RemoteControl (never the daemon)
//   AudioPolicyClient → DBus, SessionCore;  SystemContext → AudioDevices, DBus, SessionCore
//   RemoteControl → DBus, SessionCore;  AudioDevices → SessionCore;  everything Swift → Posix
//   Posix, DBus, AudioDevices, AudioServer → C modules (mprisd also CLinux, to start a child tied to
//   it); AudioDevices and AudioServer reach libsndfile and libpulse through CLazyLibraries (loaded
//   on first use)
// SystemContext is what the player and the daemon both follow on the machine: routes (jacks,
// mixer, Bluetooth), the settings and state files, the screen lock from logind.
// SessionCore's rules are pure Swift (the policy engine imports nothing but the standard library);
// its AudioSystem uses Posix only for the one thread that delivers the sessions' events.
// Posix wraps the few Linux calls everyone needs once and holds the one threading toolkit (named
// threads, poll threads with one error rule, the serial thread, the latch, signalfd, eventfd
// wake-ups, the monotonic clock); it depends on nothing but CLinux.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

/// libpulse for the tests that drive it directly: the module map no longer
/// links it (the program loads it on first use, CLazyLibraries).
let pulse: [LinkerSetting] = [.linkedLibrary("pulse")]
/// libsndfile for the tests that write audio files (`sf_writef_*`, `sf_set_string`).
let sndfile: [LinkerSetting] = [.linkedLibrary("sndfile")]

let package = Package(
    name: "mprisd",
    products: [
        .library(name: "DBus", targets: ["DBus"]),
        .library(name: "SessionCore", targets: ["SessionCore"]),
        .library(name: "RemoteControl", targets: ["RemoteControl"]),
        .library(name: "AudioPolicyClient", targets: ["AudioPolicyClient"]),
        .executable(name: "mprisd", targets: ["mprisd"]),
        .executable(name: "mprisd-control", targets: ["mprisd-control"]),
    ],
    targets: [
        // C system libraries, each wrapped exactly once.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa",
                       providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CLinux"),
        // CSndfile and CPulse give the headers only (no pkgConfig: its `Libs` would link the library;
        // both install their headers on the default path): CLazyLibraries defines the functions the
        // program calls and loads the libraries on first use (issue 16: `mprisd control` starts
        // without them). Targets calling other functions link them directly (`pulse`, `sndfile`).
        .systemLibrary(name: "CSndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        // libpipewire's headers live under versioned folders (libpipewire-0.3-dev), named here
        // rather than through pkgConfig, whose `Libs` would link the library.
        .target(name: "CLazyLibraries",
                cSettings: [.unsafeFlags(["-I/usr/include/pipewire-0.3", "-I/usr/include/spa-0.2", "-D_REENTRANT"])]),

        // Libraries.
        .target(name: "Posix", dependencies: ["CLinux"], swiftSettings: strict),
        .target(name: "DBus", dependencies: ["CDBus", "CLinux", "Posix"], swiftSettings: strict),
        .target(name: "SessionCore", dependencies: ["Posix"], swiftSettings: strict),
        .target(name: "RemoteControl", dependencies: ["DBus", "SessionCore", "Posix"], swiftSettings: strict),
        .target(name: "AudioDevices", dependencies: ["CALSA", "CSndfile", "CLazyLibraries", "SessionCore", "Posix"],
                swiftSettings: strict),
        .target(name: "AudioPolicyClient", dependencies: ["DBus", "SessionCore", "Posix"], swiftSettings: strict),
        .target(name: "AudioServer", dependencies: ["CPulse", "CLazyLibraries", "Posix", "CLinux"], swiftSettings: strict),
        .target(name: "SystemContext", dependencies: ["DBus", "SessionCore", "AudioDevices", "CLazyLibraries", "Posix"], swiftSettings: strict),
        // What the daemon changed in other programs, written down before it is made: the
        // journal's entries, its file and its lock; the daemon replays and undoes them.
        // What counts as a call, a prompt or music: the user's apps file, the known apps, the media
        // roles of both servers, the classifier of a stream — read by the daemon, and by
        // `mprisd apps`, which edits the file.
        .target(name: "AppClassification", dependencies: ["AudioServer", "SessionCore", "SystemContext"], swiftSettings: strict),
        // The one watch of the MPRIS players (their properties, identity, owner process, the
        // per-owner quota, the proxy and ignore rules) and the closed list of calls the daemon
        // ever makes to a player.
        .target(name: "MPRISDirectory", dependencies: ["DBus", "RemoteControl", "SessionCore", "Posix"], swiftSettings: strict),
        .target(name: "PolicyJournal", dependencies: ["AudioServer", "SystemContext", "DBus"], swiftSettings: strict),

        .target(name: "Player", dependencies: ["AudioDevices", "RemoteControl", "AudioPolicyClient", "SystemContext",
                                               "SessionCore", "Posix", "CLinux"],
                swiftSettings: strict),

        // The daemon, started by the executable.
        .target(name: "AudioPolicyDaemon",
                dependencies: ["AudioPolicyClient", "AppClassification", "MPRISDirectory", "SystemContext", "AudioServer",
                               "PolicyJournal", "RemoteControl", "AudioDevices",
                               "SessionCore", "DBus", "Posix"],
                swiftSettings: strict),

        // The program.
        // `mprisd control` for key bindings, without Foundation (issue 16: start-up is the cost).
        // The Swift runtime linked in statically: no dynamic Swift libraries to load and relocate.
        .executableTarget(name: "mprisd-control", dependencies: ["DBus", "Posix"], swiftSettings: strict,
                          linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        .executableTarget(name: "mprisd",
                          dependencies: ["AudioPolicyDaemon", "AudioPolicyClient", "AppClassification", "MPRISDirectory", "SystemContext",
                                         "PolicyJournal", "RemoteControl",
                                         "AudioDevices",
                                         "Player", "SessionCore", "DBus", "Posix", "CLinux"],
                          swiftSettings: strict),

        // Examples: apps written against the public products only (run by ExamplesTests).
        .executableTarget(name: "podcast-example", dependencies: ["AudioPolicyClient", "RemoteControl", "SessionCore", "DBus"],
                          path: "Examples/Podcast", swiftSettings: strict),
        .executableTarget(name: "voip-call-example", dependencies: ["AudioPolicyClient", "SessionCore", "DBus"],
                          path: "Examples/VoIPCall", swiftSettings: strict),

        // Test support: private buses and real programs.
        .target(name: "TestSupport", dependencies: ["DBus"], path: "Tests/TestSupport", swiftSettings: strict),
        .target(name: "PolicyTestSupport", dependencies: ["AudioPolicyDaemon", "AudioPolicyClient", "SessionCore", "DBus", "TestSupport"],
                path: "Tests/PolicyTestSupport", swiftSettings: strict),

        // Tests.
        .testTarget(name: "PosixTests", dependencies: ["Posix"], swiftSettings: strict),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "SessionCoreTests", dependencies: ["SessionCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "RemoteControlTests", dependencies: ["RemoteControl", "DBus", "SessionCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "AudioDevicesTests", dependencies: ["AudioDevices", "CLazyLibraries", "SessionCore", "TestSupport"],
                    swiftSettings: strict, linkerSettings: sndfile),
        .testTarget(name: "AudioPolicyClientTests",
                    dependencies: ["AudioPolicyClient", "PolicyTestSupport", "DBus", "SessionCore", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "AudioPolicyDaemonTests",
                    dependencies: ["AudioPolicyDaemon", "AudioPolicyClient", "AppClassification", "MPRISDirectory", "SystemContext",
                                   "AudioServer", "PolicyJournal",
                                   "PolicyTestSupport", "DBus", "SessionCore", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "SystemContextTests", dependencies: ["SystemContext", "DBus", "SessionCore", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "AudioServerTests", dependencies: ["AudioServer", "TestSupport"], swiftSettings: strict,
                    linkerSettings: pulse),
        .testTarget(name: "PlayerTests", dependencies: ["Player", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MprisdTests", dependencies: ["TestSupport", "DBus"], swiftSettings: strict),
        // The benchmarks are a package of their own: Benchmarks/Package.swift.
    ]
)
