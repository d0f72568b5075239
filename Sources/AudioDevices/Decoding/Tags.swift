/// The metadata a file carries, as libsndfile exposes it (`sf_get_string`): RIFF INFO chunks in
/// WAV, Vorbis comments in FLAC and Ogg, ID3 in MP3.
///
/// Every field is optional: files without tags are common. The player shows the file name when
/// there is no title; `Tags.fallbackTitle(forPath:)` is that rule, applied at the call site
/// (`tags.title ?? Tags.fallbackTitle(forPath: path)`) so "no title" stays visible here.
public struct Tags: Sendable, Hashable {
    public var title: String?
    public var artist: String?
    public var album: String?
    /// Always `nil` with libsndfile ≤ 1.2: it has no string type for the album artist. Kept so the
    /// now-playing metadata can carry it once a decoder provides it.
    public var albumArtist: String?
    /// The leading number of the track tag (`3` for `3/12`).
    public var trackNumber: Int?
    public var date: String?
    public var genre: String?
    public var comment: String?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil,
                albumArtist: String? = nil, trackNumber: Int? = nil, date: String? = nil,
                genre: String? = nil, comment: String? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.trackNumber = trackNumber
        self.date = date
        self.genre = genre
        self.comment = comment
    }

    /// The title to show for a file without one: its name without directory and extension
    /// (`/music/01 Intro.flac` → `01 Intro`). A name that is only an extension (`.flac`) is kept whole.
    public static func fallbackTitle(forPath path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The number a track tag starts with: `"3"`, `"03"`, `"3/12"` → 3; anything else → `nil`.
    static func trackNumber(from text: String?) -> Int? {
        guard let text else { return nil }
        let digits = text.drop(while: { $0 == " " }).prefix(while: { $0.isASCII && $0.isNumber })
        return Int(digits)
    }
}
