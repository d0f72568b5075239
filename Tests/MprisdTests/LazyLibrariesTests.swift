import Foundation
import TestSupport
import XCTest

/// libpulse, libsndfile and libpipewire are loaded on first use, not at exec (issue 16):
/// `mprisd control`, on the path of every media key, never maps them; a daemon whose libpulse cannot be used has no
/// audio-server peer, says why, and keeps serving.
final class LazyLibrariesTests: ArbiterTestCase {
    /// The dynamic loader's own account (`LD_DEBUG=files`: one `file=…` line per object it maps,
    /// at exec and by `dlopen`) of a whole `mprisd control play-pause` that reached the player.
    func testControlMapsNeitherLibpulseNorLibsndfile() async throws {
        try await startDaemon()
        let fake = try await startFake("keys", status: "Playing")
        try await waitForActive(fake.busName)
        let result = try await mprisd(["control", "play-pause"], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitForCalls(fake, ["Pause"])
        let mapped = Set(result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != ";" })
        })
        XCTAssertTrue(mapped.contains("libdbus-1.so.3"), "LD_DEBUG reported the libraries: \(mapped.sorted())")
        XCTAssertEqual(mapped.filter { ["libpulse", "libsndfile", "libpipewire"].contains(where: $0.hasPrefix) }, [],
                       "mapped: \(mapped.sorted())")
    }

    /// libpulse.so.0 found but unusable (an empty library of that name first on
    /// `LD_LIBRARY_PATH`, as a too-old one would be) while a real PulseAudio runs: the status and
    /// the log say why, once, and the daemon still arbitrates the media keys.
    func testADaemonWithoutAUsableLibpulseSaysWhyAndKeepsServing() async throws {
        let libraries = try await FakeLibrary.make("libpulse.so.0", in: path("fake-libs"))
        let pulse = try await PulseServer()
        addTeardownBlock { pulse.stop() }
        try await startDaemon(environment: pulse.variables.merging(["LD_LIBRARY_PATH": libraries]) { $1 })
        let status = try await waitForStatus("the status says why there is no audio server") {
            $0.json.contains("libpulse.so.0 has no pa_")
        }
        XCTAssertTrue(status.json.contains("package libpulse0"), status.json)
        await waitForDaemonLog("no audio-server peer: libpulse.so.0 has no pa_")
        guard daemon?.isRunning == true else { return XCTFail("the daemon died: \(daemon?.stderr ?? "")") }

        let fake = try await startFake("keys", status: "Playing")
        try await waitForActive(fake.busName)
        let result = try await control("pause")
        XCTAssertEqual(result.status, 0, result.stderr)
        try await waitForCalls(fake, ["Pause"])
        XCTAssertTrue(daemon?.isRunning == true)
        let lines = (daemon?.stderr ?? "").split(separator: "\n").filter { $0.contains("libpulse") }
        XCTAssertEqual(lines.count, 1, daemon?.stderr ?? "")
    }
}

/// The player without a usable libsndfile: each file is reported with the reason and skipped.
final class LazyLibrariesPlayTests: PlayerTestCase {
    func testAPlayerWithoutAUsableLibsndfileNamesEachFileAndTheReason() async throws {
        let libraries = try await FakeLibrary.make("libsndfile.so.1", in: path("fake-libs"))
        let first = try track("first.wav", seconds: 0.5)
        let second = try track("second.wav", seconds: 0.5)
        let player = try play(["--device", "null", first, second], environment: ["LD_LIBRARY_PATH": libraries])
        let status = await player.waitForExit()
        XCTAssertNotEqual(status, 0, "nothing was playable: \(player.stderr)")
        for name in ["first.wav", "second.wav"] {
            let line = player.stderr.split(separator: "\n").first { $0.contains(name) }
            XCTAssertTrue(line?.contains("libsndfile.so.1 has no sf_") == true, "\(name): \(player.stderr)")
        }
        XCTAssertTrue(player.stderr.contains("package libsndfile1"), player.stderr)
    }
}
