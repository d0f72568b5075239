@testable import AudioServer
import XCTest

/// How a stream's fields come from its own and its client's properties (no server needed).
final class StreamPropertiesTests: XCTestCase {
    func testClientPropertiesFillInAndTheStreamsOwnWin() {
        let raw = RawStream(stream: AudioStream(id: StreamID(.playback, 4), properties: [
            "media.role": "music", "application.name": "Stream's own name"]), client: 9)
        let merged = raw.merged(clientProperties: [
            "application.name": "Client name", "application.process.id": "4242",
            "application.process.binary": "firefox-esr", "media.role": "video"])
        XCTAssertEqual(merged.applicationName, "Stream's own name")
        XCTAssertEqual(merged.role, "music")
        XCTAssertEqual(merged.processID, 4242)
        XCTAssertEqual(merged.binary, "firefox-esr")
        XCTAssertNil(merged.flatpakID)
    }

    func testFlatpakIDFromThePortalOrASandboxedApplicationID() {
        XCTAssertEqual(flatpakID(["pipewire.access.portal.app_id": "org.mozilla.firefox", "application.id": "x"]),
                       "org.mozilla.firefox")
        XCTAssertEqual(flatpakID(["pipewire.access": "flatpak", "application.id": "com.spotify.Client"]), "com.spotify.Client")
        XCTAssertNil(flatpakID(["application.id": "org.gnome.Rhythmbox"]), "outside a sandbox application.id is no Flatpak id")
        XCTAssertNil(flatpakID(["pipewire.access": "unrestricted", "application.id": "org.gnome.Rhythmbox"]))
    }

    func testRestoreKeyAsTheServersComputeIt() {
        func key(_ direction: StreamDirection, _ properties: [String: String]) -> String? {
            AudioStream(id: StreamID(direction, 1), properties: properties).restoreKey
        }
        XCTAssertEqual(key(.playback, ["module-stream-restore.id": "sink-input-by-media-role:phone", "media.role": "x"]),
                       "sink-input-by-media-role:phone")
        XCTAssertEqual(key(.playback, ["media.role": "music", "application.name": "mpv"]), "sink-input-by-media-role:music")
        XCTAssertEqual(key(.capture, ["application.id": "org.a.B", "application.name": "B"]), "source-output-by-application-id:org.a.B")
        XCTAssertEqual(key(.playback, ["application.name": "mpv", "media.name": "song"]), "sink-input-by-application-name:mpv")
        XCTAssertEqual(key(.playback, ["media.name": "song"]), "sink-input-by-media-name:song")
        XCTAssertNil(key(.playback, [:]))
    }

    func testVolumesRoundTripThroughTheCStruct() {
        let volume = ChannelVolume(channels: [0x10000, 19_661, 1])
        XCTAssertEqual(encodeVolume(volume).map(decodeVolume), volume)
        XCTAssertNil(encodeVolume(ChannelVolume(channels: [])))
        XCTAssertNil(encodeVolume(ChannelVolume(channels: Array(repeating: 1, count: 33))))
    }
}
