@testable import AppClassification
@testable import AudioPolicyDaemon
import DBus
import XCTest

/// What makes a foreign player spoken audio: its rule first, then its track's `xesam:genre`
/// (in whatever shape players send it), and nothing else.
final class PlayerModeTests: XCTestCase {
    private func metadata(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(key: .string, value: .variant,
                    entries.sorted { $0.key < $1.key }.map { DictionaryEntry(.string($0.key), .variant($0.value)) })
    }

    private func changed(_ metadata: DBusValue) -> MPRISPlayerProperties? {
        MPRISPlayerProperties(propertiesChanged: [.string("org.mpris.MediaPlayer2.Player"),
                                                  .dictionary(key: .string, value: .variant,
                                                              [DictionaryEntry(.string("Metadata"), .variant(metadata))])])
    }

    func testGenresAreReadAsTheSpecsListOrAsOneString() {
        let list = metadata(["xesam:genre": .array(element: .string, [.string("Podcast"), .string("News")])])
        XCTAssertEqual(changed(list)?.genres, ["Podcast", "News"])
        let single = metadata(["xesam:genre": .string("Podcast"), "xesam:title": .string("Episode 1")])
        XCTAssertEqual(changed(single)?.genres, ["Podcast"], "mpv-mpris 0.7.1 sends one string")
        XCTAssertEqual(changed(metadata(["xesam:title": .string("Song")]))?.genres, [], "metadata without a genre")
        XCTAssertEqual(changed(metadata(["xesam:genre": .int32(186)]))?.genres, [], "a genre of the wrong type")
        XCTAssertNil(changed(.string("not a dictionary"))?.genres, "malformed metadata is ignored")
        XCTAssertNil(MPRISPlayerProperties(playbackStatus: "Playing").genres, "no metadata: unknown")
    }

    func testGenresAreBounded() {
        let many = (0..<100).map { DBusValue.string("genre \($0) " + String(repeating: "x", count: 500)) }
        let genres = changed(metadata(["xesam:genre": .array(element: .string, many)]))?.genres ?? []
        XCTAssertEqual(genres.count, MPRISPlayerProperties.genreLimit)
        XCTAssertTrue(genres.allSatisfy { $0.count == MPRISPlayerProperties.genreLengthLimit })
    }

    func testANewTracksMetadataReplacesTheGenres() {
        var properties = MPRISPlayerProperties(genres: ["Podcast"])
        properties.merge(MPRISPlayerProperties(playbackStatus: "Playing"))
        XCTAssertEqual(properties.genres, ["Podcast"], "a change without metadata keeps them")
        properties.merge(MPRISPlayerProperties(genres: []))
        XCTAssertEqual(properties.genres, [], "a track without a genre clears them")
    }

    func testSpokenGenres() {
        for genre in ["Podcast", "podcasts", "Audiobook", "AUDIOBOOKS", "Audio Book", "Spoken Word", "Speech",
                      "Audio Theatre", "audio theater", "Audio Drama", "Comedy; Podcast"] {
            XCTAssertEqual(SpokenAudioMetadata.spokenGenre(in: [genre]), genre, genre)
        }
        for genre in ["Jazz", "Rock", "Soundtrack", "Audio", "Book", "Pop Speed", ""] {
            XCTAssertNil(SpokenAudioMetadata.spokenGenre(in: [genre]), genre)
        }
        XCTAssertEqual(SpokenAudioMetadata.spokenGenre(in: ["Jazz", "Podcast"]), "Podcast")
    }

    func testTheRuleComesFirstThenTheGenre() {
        let podcast = MPRISPlayerProperties(genres: ["Podcast"])
        let music = MPRISPlayerProperties(genres: ["Jazz"])
        let none = AppRules()
        let rules = AppRules(parsing: "player mpv = music\nplayer Books = spokenAudio", path: "/apps")

        XCTAssertEqual(PlayerMode.decide(busName: "org.mpris.MediaPlayer2.vlc", identity: nil, properties: podcast, rules: none),
                       PlayerMode(spokenAudio: true, reason: "genre 'Podcast'"))
        XCTAssertEqual(PlayerMode.decide(busName: "org.mpris.MediaPlayer2.vlc", identity: nil, properties: music, rules: none),
                       .plain)
        XCTAssertEqual(PlayerMode.decide(busName: "org.mpris.MediaPlayer2.vlc", identity: nil,
                                         properties: MPRISPlayerProperties(), rules: none), .plain, "no metadata: music")
        XCTAssertEqual(PlayerMode.decide(busName: "org.mpris.MediaPlayer2.mpv", identity: nil, properties: podcast, rules: rules),
                       PlayerMode(spokenAudio: false, reason: "rule line 1"), "the user's rule overrides the genre")
        XCTAssertEqual(PlayerMode.decide(busName: "org.mpris.MediaPlayer2.x", identity: "books", properties: music, rules: rules),
                       PlayerMode(spokenAudio: true, reason: "rule line 2"))
        XCTAssertEqual(PlayerMode(spokenAudio: true, reason: nil).sessionMode, .spokenAudio)
        XCTAssertEqual(PlayerMode.plain.sessionMode, .default)
    }

    func testAGenreIsQuotedEscapedForTheLog() {
        let hostile = MPRISPlayerProperties(genres: ["Podcast\u{1B}]0;owned\u{07}"])
        let mode = PlayerMode.decide(busName: "org.mpris.MediaPlayer2.x", identity: nil, properties: hostile, rules: AppRules())
        XCTAssertTrue(mode.spokenAudio)
        XCTAssertFalse(mode.reason?.unicodeScalars.contains { $0.value < 0x20 } ?? true, mode.reason ?? "")
    }
}
