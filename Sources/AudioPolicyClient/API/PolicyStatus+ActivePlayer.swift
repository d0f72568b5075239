import Posix

/// The arbiter's choice in the status (issue 16): which player the media keys, `mprisd control`
/// and the headset act on now, and why — the first row of `mprisd players`, so that `mprisd
/// status` answers "what will the play key do?" without a second command.
extension PolicyStatus {
    public struct ActivePlayer: Codable, Sendable, Hashable {
        /// `org.mpris.MediaPlayer2.mpv`.
        public var busName: String
        /// The unique name owning it (`:1.42`).
        public var owner: String
        /// `Playing`, `Paused` or `Stopped`, as it last said.
        public var status: String
        /// Why it is the one: `playing since 14:02:11`, `paused by the user at …`, `pinned by the
        /// user at …` (as `mprisd players` says it).
        public var reason: String
        /// When the reason began, seconds since 1970.
        public var since: Double?
        public var pinned: Bool

        public init(busName: String, owner: String, status: String, reason: String, since: Double? = nil,
                    pinned: Bool = false) {
            self.busName = busName
            self.owner = owner
            self.status = status
            self.reason = reason
            self.since = since
            self.pinned = pinned
        }
    }

    /// `Active player: org.mpris.MediaPlayer2.mpv (playing since 14:02:11)`, or `Active player:
    /// none`; the name green while it plays.
    func activePlayerLine(colour: Bool) -> String {
        guard let activePlayer else { return "Active player: none" }
        let name = TextTable.paint(TextTable.Cell(activePlayer.busName, activePlayer.status == "Playing" ? .green : .none),
                                   colour: colour)
        return "Active player: \(name) (\(TextTable.Cell(activePlayer.reason).text))"
    }
}
