@testable import AppClassification
@testable import AudioPolicyDaemon
import AudioServer
import SessionCore
import XCTest

/// `media.role` under every spelling the two servers report, without regard to case.
final class MediaRoleTests: XCTestCase {
    /// Every spelling, pulse and native PipeWire, and the class it must give.
    private let expected: [(String, AppClass)] = [
        ("music", .media), ("Music", .media), ("video", .media), ("Movie", .media), ("movie", .media),
        ("game", .game), ("Game", .game),
        ("event", .systemSound), ("Notification", .systemSound), ("notification", .systemSound),
        ("Alert", .systemSound), ("alert", .systemSound), ("animation", .systemSound),
        ("phone", .call), ("Communication", .call), ("communication", .call),
        ("a11y", .screenReader), ("Accessibility", .screenReader), ("accessibility", .screenReader),
        ("Navigation", .prompt), ("navigation", .prompt), ("speech", .prompt), ("Speech", .prompt),
        ("assistant", .prompt), ("Assistant", .prompt), ("Emergency", .prompt), ("emergency", .prompt),
        ("production", .mixing), ("Production", .mixing), ("test", .ignore), ("Test", .ignore),
    ]

    func testEverySpellingGivesItsClass() {
        for (text, appClass) in expected {
            XCTAssertEqual(MediaRole(text)?.appClass, appClass, text)
            XCTAssertEqual(MediaRole(text.uppercased())?.appClass, appClass, text.uppercased())
        }
    }

    func testEveryRoleHasASpellingTested() {
        let tested = Set(expected.compactMap { MediaRole($0.0) })
        XCTAssertEqual(tested, Set(MediaRole.allCases))
    }

    func testNativeNamesMapToThePulseRoles() {
        XCTAssertEqual(MediaRole("Communication"), .phone)
        XCTAssertEqual(MediaRole("Notification"), .event)
        XCTAssertEqual(MediaRole("Accessibility"), .a11y)
        XCTAssertEqual(MediaRole("Movie"), .video)
    }

    func testUnknownRolesAreNotUnderstood() {
        for text in ["", "Camera", "Screen", "DSP", "phone ", "musique", "callx"] {
            XCTAssertNil(MediaRole(text), text)
        }
    }

    func testConfigurations() {
        XCTAssertEqual(MediaRole.phone.configuration, SessionConfiguration(.playAndRecord, mode: .voiceChat))
        XCTAssertTrue(MediaRole.phone.configuration?.traits.isCall ?? false)
        XCTAssertEqual(MediaRole.video.configuration, SessionConfiguration(.playback, mode: .moviePlayback))
        XCTAssertEqual(MediaRole.music.configuration, SessionConfiguration(.playback))
        // G-APP-GAME and G-UI-SOUNDS: they mix and obey silent mode.
        for role in [MediaRole.game, .event] {
            let traits = role.configuration?.traits
            XCTAssertEqual(traits?.isMixable, true, "\(role)")
            XCTAssertEqual(traits?.isSilencedBySilentModeAndLock, true, "\(role)")
            XCTAssertEqual(traits?.ducksOthers, false, "\(role)")
        }
        // G-SCN-NAV: a prompt ducks, interrupts spoken audio, and is not silenced.
        let prompt = MediaRole.navigation.configuration?.traits
        XCTAssertEqual(prompt?.ducksOthers, true)
        XCTAssertEqual(prompt?.interruptsSpokenAudio, true)
        XCTAssertEqual(prompt?.isSilencedBySilentModeAndLock, false)
        XCTAssertEqual(prompt?.isSpokenAudio, false)
        // A screen reader ducks the others and is protected from everything.
        XCTAssertEqual(MediaRole.a11y.configuration?.traits.ducksOthers, true)
        XCTAssertTrue(MediaRole.a11y.appClass.isProtected)
        XCTAssertNil(MediaRole.test.configuration)
    }

    /// Every built-in configuration is valid as it stands (G-CAT-OPTIONS).
    func testEveryClassConfigurationIsValid() throws {
        for appClass in AppClass.allCases {
            guard let configuration = appClass.configuration else { continue }
            XCTAssertEqual(try configuration.validated().effective, configuration, "\(appClass)")
        }
    }

    /// Issue 24: one table, pipewire-pulse's, read both ways: each native name reads as the first
    /// pulse role stored under it, and every role's native name reads back as a role of that name.
    func testOneTableBothDirections() {
        for (role, name) in MediaRole.pipeWireNames {
            XCTAssertEqual(role.pipeWireName, name, "\(role)")
            let first = MediaRole.pipeWireNames.first { $0.value == name }?.key
            XCTAssertEqual(MediaRole(name), first, name)
        }
        for role in MediaRole.allCases {
            XCTAssertEqual(MediaRole(role.pipeWireName)?.pipeWireName, role.pipeWireName, "\(role)")
            XCTAssertEqual(MediaRole(role.rawValue), role)
        }
        XCTAssertEqual(MediaRole.animation.pipeWireName, "Movie")
        XCTAssertEqual(MediaRole.navigation.pipeWireName, "Navigation")
    }

    /// What a role read through pipewire-pulse may have been: `video` is also `animation` (both are
    /// stored as Movie); no other role loses its name.
    func testOnlyVideoThroughPipeWirePulseStandsForTwoRoles() {
        XCTAssertEqual(MediaRole.roles("video", throughPipeWirePulse: true), [.video, .animation])
        XCTAssertEqual(MediaRole.roles("video", throughPipeWirePulse: false), [.video])
        XCTAssertEqual(MediaRole.roles("nonsense", throughPipeWirePulse: true), [])
        for role in MediaRole.allCases where role != .video && role != .animation {
            XCTAssertEqual(MediaRole.roles(role.rawValue, throughPipeWirePulse: true), [role], "\(role)")
        }
    }
}

