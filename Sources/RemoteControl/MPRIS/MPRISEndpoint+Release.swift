import DBus

/// Leaving the audio context: the last state announced, then the name given up, in that order
/// (design "MPRIS endpoint": `PlaybackStatus=Stopped`, then the release).
extension MPRISEndpoint {
    /// The announced properties of each interface, all of them: what the release re-announces.
    static let playerPropertyNames = AnnouncedProperty.allCases.filter { !$0.isRoot }.map(\.name)
    static let rootPropertyNames = AnnouncedProperty.allCases.filter(\.isRoot).map(\.name)

    /// Gives up `name` after announcing the current state, in one job on the I/O thread.
    ///
    /// When that job runs, the published state is `Stopped`, whoever computed it: the gate is
    /// `releasing` from the plan that asked for this release until the bus answers it, and while
    /// it is, `published` stays stopped (see `plan`). So the `PropertiesChanged` with `Stopped` is queued for sending before
    /// `ReleaseName`, even when the change to `Stopped` was planned on another thread whose own
    /// announcement has not been queued yet (a stop while the name was still being requested:
    /// the release is then planned where the bus's answer is processed); that late announcement
    /// finds nothing new to say. (The root interface's `CanQuit`/`CanRaise` are queued just
    /// before, from this thread: the I/O thread runs jobs in the order they were queued.)
    func release(_ name: String, announcingFrom object: ExportedObject?) {
        let finished: @Sendable (Result<Connection.ReleaseNameReply, DBusError>) -> Void = { [weak self] _ in
            self?.reconcile { $0.gate.releaseFinished(name) }
        }
        guard let object else { return connection.releaseName(name, completion: finished) }
        object.propertiesChanged(MPRISNames.rootInterface, Self.rootPropertyNames)
        object.propertiesChanged(MPRISNames.playerInterface, Self.playerPropertyNames, thenReleasing: name,
                                 completion: finished)
    }
}
