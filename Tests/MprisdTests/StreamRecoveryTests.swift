import Foundation
import TestSupport
import XCTest

/// Nothing the daemon does to a stream outlives it: a daemon killed (SIGKILL) in the middle of a
/// duck or a mute has the next daemon restore the stream, and a stream that ended while ducked or
/// muted — whose value the server's restore database kept for its role — does not make the next
/// stream of that role start ducked or muted. Real PulseAudio with module-stream-restore and on PipeWire with WirePlumber's restore-stream.
final class StreamRecoveryTests: StreamTestCase {
    private var journalPath: String { userDirectories["XDG_STATE_HOME", default: ""] + "/mprisd/journal" }

    private func journalText() -> String {
        (try? String(contentsOfFile: journalPath, encoding: .utf8)) ?? ""
    }

    /// Which repair set the next stream of the key right: the server's restore entry written
    /// back (`writeRestoreEntry`; on PulseAudio the entry shows our value at once, so that is
    /// what must happen there), or the next stream corrected as it started (WirePlumber stores
    /// asynchronously: its entry may not show our value yet when the stream ends).
    private func assertRepaired(_ kind: AudioServerKind, file: StaticString = #filePath, line: UInt = #line) async {
        let log = daemon?.stderr ?? ""
        let entry = log.contains("the server's restore entry")
        let corrected = log.contains("started with the ducked volume") || log.contains("started muted as the server kept")
        XCTAssertTrue(entry || corrected, "neither repair happened: \(log)", file: file, line: line)
        if kind == .pulseAudio {
            XCTAssertTrue(entry, "PulseAudio's restore entry is written back: \(log)", file: file, line: line)
            XCTAssertFalse(corrected, "so the next stream starts right by itself: \(log)", file: file, line: line)
        }
    }

    private func killedDaemonIsGone() async throws {
        try await waitUntil("the killed daemon's name is gone") { try await self.policyOwner() == nil }
    }

    /// Music at `user`, ducked by a ducker.
    private func duckedMusic(user: UInt32) async throws -> (music: BackgroundProgram, stream: SinkInput, ducker: BackgroundProgram) {
        let (music, stream) = try await startMusic()
        try await setVolume(stream.index, raw: user)
        try await waitForSinkInput("the user's volume") { $0.index == stream.index && $0.volumes.allSatisfy { $0 == user } }
        let ducker = try startDucker()
        try await waitForSinkInput("the stream ducked") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == Self.ducked(user) }
        }
        return (music, stream, ducker)
    }

    func testAStreamEndingWhileDuckedDoesNotLeaveTheNextStreamOfItsRoleDuckedOnPulseAudio() async throws { try await aStreamEndingWhileDuckedDoesNotLeaveTheNextStreamOfItsRoleDucked(.pulseAudio) }
    func testAStreamEndingWhileDuckedDoesNotLeaveTheNextStreamOfItsRoleDuckedOnPipeWire() async throws { try await aStreamEndingWhileDuckedDoesNotLeaveTheNextStreamOfItsRoleDucked(.pipeWire) }

    private func aStreamEndingWhileDuckedDoesNotLeaveTheNextStreamOfItsRoleDucked(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let user: UInt32 = 52_429
        let (_, stream, ducker) = try await duckedMusic(user: user)
        let pid = try XCTUnwrap(stream.processID)
        kill(pid, SIGKILL)  // paplay dies mid-duck: the server files our ducked volume under role music
        await waitForDaemonLog("stream is set right if it starts with")
        if kind == .pulseAudio { await waitForDaemonLog("the server's restore entry", "set right") }
        // The ducker ends first: the next paplay is an app's implicit session, which a ducker
        // still there would duck for good reason (ImplicitPromptTests).
        ducker.kill()

        _ = try startPaplay(role: "music")
        let next = try await waitForSinkInput("the next music stream at the user's volume") {
            $0.app == "paplay" && $0.index != stream.index && $0.volumes.allSatisfy { $0 == user }
        }
        try await assertKeeps(next.index, "it stays at the user's volume") { $0.volumes.allSatisfy { $0 == user } }
        await assertRepaired(kind)
        let forgotten = await eventually { !self.journalText().contains("streamvolume") }
        XCTAssertTrue(forgotten, "repaired, then forgotten: \(journalText())")
    }

    func testAStreamEndingWhileMutedDoesNotLeaveTheNextStreamOfItsRoleMutedOnPulseAudio() async throws { try await aStreamEndingWhileMutedDoesNotLeaveTheNextStreamOfItsRoleMuted(.pulseAudio) }
    func testAStreamEndingWhileMutedDoesNotLeaveTheNextStreamOfItsRoleMutedOnPipeWire() async throws { try await aStreamEndingWhileMutedDoesNotLeaveTheNextStreamOfItsRoleMuted(.pipeWire) }

    private func aStreamEndingWhileMutedDoesNotLeaveTheNextStreamOfItsRoleMuted(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        try await startStreamDaemon()
        let (_, stream) = try await startMusic()
        let call = try startCall()
        try await waitForSinkInput("muted by the call") { $0.index == stream.index && $0.muted }
        kill(try XCTUnwrap(stream.processID), SIGKILL)
        await waitForDaemonLog("stream is set right if it starts with")
        if kind == .pulseAudio { await waitForDaemonLog("the server's restore entry", "set right") }
        call.kill()  // a call still there would mute the next paplay's implicit session
        _ = try startPaplay(role: "music")
        let next = try await waitForSinkInput("the next music stream unmuted") {
            $0.app == "paplay" && $0.index != stream.index && !$0.muted
        }
        try await assertKeeps(next.index, "it stays unmuted") { !$0.muted }
        await assertRepaired(kind)
    }

    func testADaemonKilledMidDuckHasTheNextDaemonRestoreTheStreamOnPulseAudio() async throws { try await aDaemonKilledMidDuckHasTheNextDaemonRestoreTheStream(.pulseAudio) }
    func testADaemonKilledMidDuckHasTheNextDaemonRestoreTheStreamOnPipeWire() async throws { try await aDaemonKilledMidDuckHasTheNextDaemonRestoreTheStream(.pipeWire) }

    private func aDaemonKilledMidDuckHasTheNextDaemonRestoreTheStream(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        let first = try await startStreamDaemon()
        let user: UInt32 = 52_429
        let (_, stream, ducker) = try await duckedMusic(user: user)
        XCTAssertTrue(journalText().contains("streamvolume"), "the duck is journaled before it is made: \(journalText())")
        first.signal(SIGKILL)
        ducker.kill()
        try await killedDaemonIsGone()
        try await assertKeeps(stream.index, "nobody restores it without a daemon (the guard leaves streams alone)",
                              for: .milliseconds(300)) { $0.volumes.allSatisfy { $0 == Self.ducked(user) } }
        XCTAssertTrue(journalText().contains("streamvolume"), "the guard kept the stream entry: \(journalText())")

        try await startStreamDaemon()
        try await waitForSinkInput("the user's volume back exactly") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == user }
        }
        let emptied = await eventually { !self.journalText().contains("streamvolume") }
        XCTAssertTrue(emptied, "the entry is crossed out once undone: \(journalText())")

        // PipeWire lists a new stream for a moment with its volume still unset (read as 0) before
        // WirePlumber's restore-stream applies the stored one, so the assertion is on the value it
        // settles at — which would be the ducked level if the restore database had kept our duck.
        _ = try startPaplay(role: "music")
        let next = try await waitForSinkInput("the next music stream at the user's volume") {
            $0.app == "paplay" && $0.index != stream.index && $0.volumes.allSatisfy { $0 == user }
        }
        try await assertKeeps(next.index, "the next stream of the role stays at the user's volume") {
            $0.volumes.allSatisfy { $0 == user }
        }
    }

    func testADaemonKilledMidMuteHasTheNextDaemonUnmuteTheStreamOnPulseAudio() async throws { try await aDaemonKilledMidMuteHasTheNextDaemonUnmuteTheStream(.pulseAudio) }
    func testADaemonKilledMidMuteHasTheNextDaemonUnmuteTheStreamOnPipeWire() async throws { try await aDaemonKilledMidMuteHasTheNextDaemonUnmuteTheStream(.pipeWire) }

    private func aDaemonKilledMidMuteHasTheNextDaemonUnmuteTheStream(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        let first = try await startStreamDaemon()
        let (_, stream) = try await startMusic()
        let call = try startCall()
        try await waitForSinkInput("muted by the call") { $0.index == stream.index && $0.muted }
        XCTAssertTrue(journalText().contains("streammute"), journalText())
        first.signal(SIGKILL)
        call.kill()
        try await killedDaemonIsGone()
        try await startStreamDaemon()
        try await waitForSinkInput("unmuted by the next daemon") { $0.index == stream.index && !$0.muted }
        _ = try startPaplay(role: "music")
        let next = try await waitForSinkInput("the next music stream") { $0.app == "paplay" && $0.index != stream.index }
        XCTAssertFalse(next.muted, "the next stream of the role starts unmuted")
    }

    func testADaemonKilledMidDuckWhoseStreamEndedRepairsTheNextStreamOfItsRoleOnPulseAudio() async throws { try await aDaemonKilledMidDuckWhoseStreamEndedRepairsTheNextStreamOfItsRole(.pulseAudio) }
    func testADaemonKilledMidDuckWhoseStreamEndedRepairsTheNextStreamOfItsRoleOnPipeWire() async throws { try await aDaemonKilledMidDuckWhoseStreamEndedRepairsTheNextStreamOfItsRole(.pipeWire) }

    private func aDaemonKilledMidDuckWhoseStreamEndedRepairsTheNextStreamOfItsRole(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        let first = try await startStreamDaemon()
        let user: UInt32 = 45_000
        let (_, stream, ducker) = try await duckedMusic(user: user)
        first.signal(SIGKILL)
        ducker.kill()
        kill(try XCTUnwrap(stream.processID), SIGKILL)
        try await killedDaemonIsGone()
        try await startStreamDaemon()
        await waitForDaemonLog("its stream is gone")
        if kind == .pulseAudio { await waitForDaemonLog("the server's restore entry", "set right") }
        _ = try startPaplay(role: "music")
        let next = try await waitForSinkInput("the next music stream at the user's volume") {
            $0.app == "paplay" && $0.index != stream.index && $0.volumes.allSatisfy { $0 == user }
        }
        try await assertKeeps(next.index, "it stays there") { $0.volumes.allSatisfy { $0 == user } }
        await assertRepaired(kind)
    }

    func testAServerKilledMidDuckDoesNotLeaveTheNextStreamDuckedOnPulseAudio() async throws { try await serverKilledMidDuck(.pulseAudio) }
    func testAServerKilledMidDuckDoesNotLeaveTheNextStreamDuckedOnPipeWire() async throws { try await serverKilledMidDuck(.pipeWire) }

    /// The server dies under the daemon while it ducks a stream, and comes back: the stream is
    /// gone (a new server instance, a new cookie), whatever the server kept for its role is set
    /// right, and the next stream of the role starts at the user's volume.
    private func serverKilledMidDuck(_ kind: AudioServerKind) async throws {
        let server = try await startPulse(kind)
        try await startStreamDaemon()
        let user: UInt32 = 52_429
        let (music, stream, ducker) = try await duckedMusic(user: user)
        server.kill()
        await waitForDaemonLog("audio server gone")
        _ = await music.waitForExit(timeout: .seconds(10))  // paplay lost its server
        try await server.start(timeout: .seconds(20))
        await waitForDaemonLog("its stream is gone", timeout: .seconds(15))
        ducker.kill()  // else it ducks the next paplay's implicit session, as it should
        _ = try startPaplay(role: "music")
        // At the user's volume, or at 100 % where the killed server had saved nothing of the
        // role yet (WirePlumber stores to disk lazily): never at our ducked value.
        let ducked = Self.ducked(user)
        // A new server instance: indices start again (the old stream's index may be reused).
        let next = try await waitForSinkInput("the next music stream") { $0.app == "paplay" }
        XCTAssertNotNil(stream.processID)
        try await assertKeeps(next.index, "it does not start (or end up) ducked", for: .seconds(1)) {
            $0.volumes.allSatisfy { $0 == user || $0 == Self.norm } && !$0.volumes.contains(ducked)
        }
    }

    func testACleanStopUndoesTheDuckAndTheMuteOnPulseAudio() async throws { try await aCleanStopUndoesTheDuckAndTheMute(.pulseAudio) }
    func testACleanStopUndoesTheDuckAndTheMuteOnPipeWire() async throws { try await aCleanStopUndoesTheDuckAndTheMute(.pipeWire) }

    private func aCleanStopUndoesTheDuckAndTheMute(_ kind: AudioServerKind) async throws {
        try await startPulse(kind)
        let daemon = try await startStreamDaemon()
        let user: UInt32 = 52_429
        let (_, stream, _) = try await duckedMusic(user: user)
        daemon.signal(SIGTERM)
        _ = await daemon.waitForExit(timeout: .seconds(10))
        try await waitForSinkInput("the user's volume back when the daemon stops") {
            $0.index == stream.index && $0.volumes.allSatisfy { $0 == user }
        }
        XCTAssertFalse(journalText().contains("streamvolume"), journalText())
    }
}

