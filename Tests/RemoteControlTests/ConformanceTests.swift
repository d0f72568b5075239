import DBus
import Foundation
import RemoteControl
import Synchronization
import TestSupport
import XCTest

/// Types and presence per the MPRIS 2.2 spec, read by `busctl` and `gdbus`; the object complete
/// at the moment the name appears.
final class ConformanceTests: EndpointTestCase {
    private func startedPlayer() async throws -> TestPlayer {
        let player = try makePlayer()
        player.start()
        let acquired = try await waitForName(present: true)
        XCTAssertTrue(acquired)
        return player
    }

    private func busctlGet(_ interface: String, _ name: String) async throws -> String {
        let result = try await tool("busctl", ["--user", "get-property", Self.name, "/org/mpris/MediaPlayer2",
                                               interface, name])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testMetadataTypes() async throws {
        let player = try await startedPlayer()
        let metadata = try await busctlGet("org.mpris.MediaPlayer2.Player", "Metadata")
        for expected in [#""mpris:trackid" o "/org/mprisd/track/1""#, #""mpris:length" x 180000000"#,
                         #""xesam:artist" as 2 "Ann Artist" "Bob Band""#, #""xesam:albumArtist" as 1 "Various""#,
                         #""xesam:trackNumber" i 1"#, #""xesam:title" s "First Song""#,
                         #""xesam:url" s "file:///music/one.flac""#, #""mpris:artUrl" s "file:///tmp/art1.png""#] {
            XCTAssertTrue(metadata.contains(expected), "\(expected) in \(metadata)")
        }
        XCTAssertTrue(metadata.hasPrefix("a{sv} 9 "), metadata)
        XCTAssertEqual(player.calls, [])
    }

    func testEveryPropertyIsPresentWithItsType() async throws {
        let player = try await startedPlayer()
        let player2 = "org.mpris.MediaPlayer2.Player"
        let expectations: [(String, String, String)] = [
            (player2, "PlaybackStatus", #"s "Playing""#), (player2, "LoopStatus", #"s "None""#),
            (player2, "Rate", "d 1"), (player2, "MinimumRate", "d 1"), (player2, "MaximumRate", "d 1"),
            (player2, "Volume", "d 1"), (player2, "Shuffle", "b false"), (player2, "CanControl", "b true"),
            (player2, "CanGoNext", "b true"), (player2, "CanGoPrevious", "b true"), (player2, "CanPlay", "b true"),
            (player2, "CanPause", "b true"), (player2, "CanSeek", "b true"),
            ("org.mpris.MediaPlayer2", "Identity", #"s "RC Test Player""#),
            ("org.mpris.MediaPlayer2", "DesktopEntry", #"s "rctest""#),
            ("org.mpris.MediaPlayer2", "HasTrackList", "b false"),
            ("org.mpris.MediaPlayer2", "CanQuit", "b true"), ("org.mpris.MediaPlayer2", "CanRaise", "b true"),
            ("org.mpris.MediaPlayer2", "SupportedUriSchemes", #"as 1 "file""#),
            ("org.mpris.MediaPlayer2", "SupportedMimeTypes", #"as 1 "audio/flac""#),
        ]
        for (interface, name, expected) in expectations {
            let value = try await busctlGet(interface, name)
            XCTAssertEqual(value, expected, name)
        }
        let position = try await busctlGet(player2, "Position")
        XCTAssertTrue(position.hasPrefix("x "), position)
        await expectBusName(player, Self.name)
    }

    func testIntrospectionAnnotatesPositionAndCanControlAsNotSignalled() async throws {
        let player = try await startedPlayer()
        let result = try await tool("gdbus", ["introspect", "--session", "--xml", "--dest", Self.name,
                                              "--object-path", "/org/mpris/MediaPlayer2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let xml = result.stdout
        let annotation = #"\s*<annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>"#
        XCTAssertNotNil(xml.range(of: #"<property name="Position" type="x" access="read">"# + annotation,
                                  options: .regularExpression), xml)
        XCTAssertNotNil(xml.range(of: #"<property name="CanControl" type="b" access="read">"# + annotation,
                                  options: .regularExpression), xml)
        XCTAssertTrue(xml.contains(#"<property name="Volume" type="d" access="readwrite""#), xml)
        XCTAssertTrue(xml.contains(#"<arg name="TrackId" type="o" direction="in"/>"#), xml)
        XCTAssertTrue(xml.contains(#"<signal name="Seeked">"#), xml)
        await expectBusName(player, Self.name)
    }

    /// mpris-proxy and playerctld read everything the moment the name appears: a client that
    /// calls GetAll as soon as it sees NameOwnerChanged gets the complete, playing state.
    func testObjectIsCompleteWhenTheNameAppears() async throws {
        let client = try connect()
        let box = ValueBox<[String: DBusValue]?>(nil)
        let watch = try await client.watchNameOwner(Self.name) { owner in
            guard let owner else { return }
            client.call(.methodCall(destination: owner, path: MPRISNames.objectPath,
                                    interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                    body: [.string("org.mpris.MediaPlayer2.Player")])) { result in
                guard case .success(let reply) = result,
                      case .dictionary(_, _, let entries)? = reply.body.first else { return }
                var values: [String: DBusValue] = [:]
                for entry in entries {
                    if case .string(let key) = entry.key, case .variant(let value) = entry.value { values[key] = value }
                }
                box.value.withLock { $0 = values }
            }
        }
        defer { watch.cancel() }
        let recorder = try await SignalRecorder(connection: client, name: Self.name)
        let player = try makePlayer()
        // The export has been processed by the player's I/O thread (the binding seeds its
        // de-duplication cache then), so the entry below is announced as a change.
        try await sync(client, destination: player.endpoint.connection.uniqueName)
        player.start()
        let got = await waitUntil { box.value.withLock { $0 != nil } }
        XCTAssertTrue(got)
        let values = box.value.withLock { $0 } ?? [:]
        XCTAssertEqual(values["PlaybackStatus"], .string("Playing"))
        XCTAssertEqual(values["CanPlay"], .boolean(true))
        guard case .dictionary(_, _, let metadata)? = values["Metadata"] else {
            return XCTFail("no Metadata in \(values)")
        }
        XCTAssertTrue(metadata.contains { $0.key == .string("xesam:title") && $0.value == .variant(.string("First Song")) })
        XCTAssertTrue(metadata.contains { $0.key == .string("mpris:trackid") })

        // The order on the bus proves it: the complete state was announced before the name was
        // even requested, so its PropertiesChanged precedes NameOwnerChanged.
        let members = recorder.all.compactMap(\.member)
        XCTAssertEqual(members.first, "PropertiesChanged", "\(members)")
        XCTAssertEqual(recorder.propertiesChanged().first?.changed["PlaybackStatus"], .string("Playing"))
        XCTAssertTrue(members.contains("NameOwnerChanged"), "\(members)")
    }
}
