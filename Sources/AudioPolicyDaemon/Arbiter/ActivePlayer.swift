/// The player the media keys and the headset act on now.
public struct ActivePlayer: Sendable, Hashable {
    /// Its MPRIS bus name ("org.mpris.MediaPlayer2.mpv").
    public var busName: String
    /// The unique name owning it (":1.42").
    public var owner: String
    public init(busName: String, owner: String) { self.busName = busName; self.owner = owner }
}
