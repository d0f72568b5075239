/// What is playing: the item's identity and the metadata shown by remote controls (MPRIS
/// `Metadata`: `xesam:title`, `xesam:artist`, `xesam:album`, `xesam:albumArtist`,
/// `xesam:trackNumber`, `mpris:length`, `mpris:artUrl`, `xesam:url`).
public struct NowPlayingItem: Sendable, Hashable {
    /// The app's identity of the item (a queue entry, a file path…). A different id is a different
    /// track: the endpoint gives it a new, unique `mpris:trackid` (consumers such as playerctl
    /// reset their position when the track id changes), and `SetPosition` for an older track id is
    /// ignored.
    public var id: String
    public var title: String?
    /// `xesam:artist` (`as`).
    public var artists: [String]
    public var album: String?
    /// `xesam:albumArtist` (`as`).
    public var albumArtists: [String]
    /// `xesam:trackNumber` (`i`).
    public var trackNumber: Int?
    /// `mpris:length` (`x`, µs); nil when unknown (a stream).
    public var duration: Duration?
    /// `mpris:artUrl`: a URI of the cover art.
    public var artURL: String?
    /// `xesam:url`: the URI of the media.
    public var url: String?

    public init(id: String, title: String? = nil, artists: [String] = [], album: String? = nil,
                albumArtists: [String] = [], trackNumber: Int? = nil, duration: Duration? = nil,
                artURL: String? = nil, url: String? = nil) {
        self.id = id
        self.title = title
        self.artists = artists
        self.album = album
        self.albumArtists = albumArtists
        self.trackNumber = trackNumber
        self.duration = duration
        self.artURL = artURL
        self.url = url
    }
}
