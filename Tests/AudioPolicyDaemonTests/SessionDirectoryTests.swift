@testable import AudioPolicyDaemon
import SessionCore
import XCTest

/// The daemon's one list of sessions (`SessionDirectory`): one numbering, each session entered
/// with its label, owner and kind, and the lookups the tracker and the arbiter make.
final class SessionDirectoryTests: XCTestCase {
    func testOneNumberingNeverGivesANumberTwice() {
        let sessions = SessionDirectory()
        let numbers = (0..<5).map { _ in sessions.nextNumber() }
        XCTAssertEqual(numbers, [1, 2, 3, 4, 5])
        sessions.add(entry(7, number: numbers[0], kind: .client))
        sessions.remove(SessionID(rawValue: 7))
        XCTAssertEqual(sessions.nextNumber(), 6, "a removed session's number is not given again")
    }

    func testEachKindIsFoundByWhatItsReadersAsk() {
        let sessions = SessionDirectory()
        sessions.add(entry(1, number: 3, label: "session 3 (call, :1.42)", owner: ":1.42", kind: .client))
        sessions.add(entry(2, number: 1, label: "session 1 (:1.42)", owner: ":1.42", kind: .client))
        sessions.add(entry(3, number: 4, label: "org.mpris.MediaPlayer2.mpv", owner: ":1.42",
                           kind: .player(busName: "org.mpris.MediaPlayer2.mpv")))
        sessions.add(entry(4, number: 5, label: "ZOOM VoiceEngine (pid 4242)", owner: nil, kind: .implicit))

        XCTAssertEqual(sessions.label(of: SessionID(rawValue: 4)), "ZOOM VoiceEngine (pid 4242)")
        XCTAssertEqual(sessions.session(ofPlayer: "org.mpris.MediaPlayer2.mpv"), SessionID(rawValue: 3))
        XCTAssertNil(sessions.session(ofPlayer: "org.mpris.MediaPlayer2.vlc"))
        XCTAssertEqual(sessions.clientSessions(ownedBy: ":1.42"), [SessionID(rawValue: 2), SessionID(rawValue: 1)],
                       "the owner's client sessions, oldest first; not its player's")
        XCTAssertEqual(sessions.entries.map(\.number), [1, 3, 4, 5])

        sessions.remove(SessionID(rawValue: 3))
        XCTAssertNil(sessions.session(ofPlayer: "org.mpris.MediaPlayer2.mpv"))
        XCTAssertNil(sessions.label(of: SessionID(rawValue: 3)))
    }

    func testAddingAgainReplaces() {
        let sessions = SessionDirectory()
        sessions.add(entry(1, number: 1, label: "old", kind: .implicit))
        sessions.add(entry(1, number: 1, label: "new", kind: .implicit))
        XCTAssertEqual(sessions.entries.map(\.label), ["new"])
    }

    private func entry(_ id: UInt64, number: UInt64, label: String = "a session", owner: String? = nil,
                       kind: SessionDirectory.Kind) -> SessionDirectory.Entry {
        SessionDirectory.Entry(id: SessionID(rawValue: id), number: number, label: label, owner: owner, kind: kind)
    }
}
