import DBus

/// One appearance of an MPRIS player on the session bus as the directory knows it: who owns the
/// name, what its player interface says, what it calls itself and which process it is.
///
/// A name that gets a new owner is a new appearance (a new `appearance` number): whatever was
/// known or done about the old one is not carried over, and answers about it are dropped.
public struct DirectoryPlayer: Sendable, Hashable {
    /// `org.mpris.MediaPlayer2.NAME`.
    public let busName: String
    /// The unique name owning it: where every call to the player goes.
    public let owner: String
    public let appearance: UInt64
    /// Found by the directory's first look at the bus: it was there before the daemon.
    public let foundAtStart: Bool
    /// The player interface's properties, as last said.
    public internal(set) var properties = MPRISPropertyStore()
    /// `GetAll` was answered — or failed, and then `properties` holds what its signals said.
    public internal(set) var isRead = false
    /// The root interface's `Identity` ("VLC media player"), once read; nil if it has none.
    public internal(set) var identity: String?
    /// The owner's process id, from the bus (the kernel's word), once asked.
    public internal(set) var processID: Int32?

    init(busName: String, owner: String, appearance: UInt64, foundAtStart: Bool) {
        self.busName = busName
        self.owner = owner
        self.appearance = appearance
        self.foundAtStart = foundAtStart
    }

    /// A proxy of other players (`playerctld`): listed (the arbiter shows it ignored), never
    /// governed as a player of its own.
    public var isProxy: Bool { PlayerIgnoreList.isProxy(busName) }

    /// The same appearance as `other` (same name, same owner, same number).
    func isSame(as other: DirectoryPlayer) -> Bool {
        busName == other.busName && appearance == other.appearance
    }
}

/// What the directory tells its readers, in the order it happened, on the session bus's I/O
/// thread (or the thread that stops the directory). Every event carries the player as it is
/// after the event.
///
/// A player's events always come as: `appeared`, then `read` once, then any number of
/// `changed` and `seeked`; `identified` and `located` whenever their answers come (before or
/// after `read`); `vanished` last. Signals that come before `read` are not told: the `GetAll`
/// answer already includes them (the bus delivers in order).
public enum PlayerDirectoryEvent: Sendable {
    case appeared(DirectoryPlayer)
    case read(DirectoryPlayer)
    /// A `PropertiesChanged` of the player interface: `changes` is its `a{sv}` as sent.
    case changed(DirectoryPlayer, changes: DBusValue)
    /// The player's `Seeked(x position)`.
    case seeked(DirectoryPlayer, position: Int64)
    case identified(DirectoryPlayer)
    case located(DirectoryPlayer)
    case vanished(DirectoryPlayer, reason: PlayerDirectoryVanishing)
}

/// Why a player left the directory.
public enum PlayerDirectoryVanishing: Sendable, Hashable {
    /// Its name was released (the player quit or crashed).
    case nameReleased
    /// Its name went to another owner: a new appearance follows at once.
    case ownerChanged
    /// The bus connection was lost: no player can be reached any more.
    case busLost
    /// The directory stopped.
    case stopped
}
