import DBus

/// The faithful mapping of MPRIS calls to remote commands (G-RC-FAITHFUL, MPRIS 2.2 Player
/// interface). Runs on the connection's I/O thread; the command handlers run synchronously here.
///
/// A command that is unavailable (disabled, no handler) or called outside the audio context has no
/// effect and the call succeeds with an empty reply, as the spec asks for `Play`, `Pause`, `Next`…
/// ("If CanX is false, attempting to call this method should have no effect"). `Raise`, `Quit` and
/// property writes answer `NotSupported` instead, which the spec allows. A handler's failure
/// status becomes a `Failed` error reply.
extension MPRISEndpoint {
    /// Runs `event` if its command can act now.
    func perform(_ event: RemoteCommandEvent) throws(DBusError) -> [DBusValue] {
        guard published.can(event.command) else { return [] }
        try Self.check(commands.perform(event), event.command)
        return []
    }

    /// `PlayPause`: the toggle command; without one, `Pause` when playing and `Play` otherwise —
    /// still exactly what was asked (a toggle), never a repurposed event.
    func playPause() throws(DBusError) -> [DBusValue] {
        let snapshot = published
        if snapshot.can(.togglePlayPause) { return try perform(.togglePlayPause) }
        return try perform(snapshot.effectiveState == .playing ? .pause : .play)
    }

    /// `Seek(offset µs)`: relative. A target before the start seeks to the start; past the end it
    /// acts like `Next` (spec). Without a `seek` handler, `changePlaybackPosition` carries it.
    func seek(by offset: Int64) throws(DBusError) -> [DBusValue] {
        let snapshot = published
        guard snapshot.canSeek, let item = snapshot.info.item else { return [] }
        let current = snapshot.position()
        var target = current + .microseconds(offset)
        if target < .zero { target = .zero }
        if let duration = item.duration, target > duration {
            return try perform(.nextTrack)
        }
        if snapshot.can(.seek) { return try perform(.seek(offset: target - current)) }
        return try perform(.changePlaybackPosition(itemID: item.id, position: target))
    }

    /// `SetPosition(track id, position µs)`: ignored when the track id is not the current one
    /// (a stale request) or the position is outside `0…mpris:length` (spec).
    func setPosition(_ track: ObjectPath, _ position: Int64) throws(DBusError) -> [DBusValue] {
        let snapshot = published
        guard snapshot.canSeek, let item = snapshot.info.item, track == snapshot.trackPath,
              position >= 0 else { return [] }
        let target = Duration.microseconds(position)
        if let duration = item.duration, target > duration { return [] }
        if snapshot.can(.changePlaybackPosition) {
            return try perform(.changePlaybackPosition(itemID: item.id, position: target))
        }
        return try perform(.seek(offset: target - snapshot.position()))
    }

    /// `OpenUri`: only schemes listed in `SupportedUriSchemes`.
    func openURI(_ uri: String) throws(DBusError) -> [DBusValue] {
        guard published.can(.openURI) else { return [] }
        let scheme = uri.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        guard uri.contains(":"), configuration.supportedURISchemes.contains(scheme) else {
            throw DBusError.notSupported("the URI scheme '\(scheme)' is not supported")
        }
        return try perform(.openURI(uri))
    }

    func raiseOrQuit(_ command: RemoteCommand) throws(DBusError) -> [DBusValue] {
        guard published.can(command) else { throw DBusError.notSupported("\(command) is not supported now") }
        return try perform(command == .raise ? .raise : .quit)
    }

    // MARK: Property writes

    func setLoopStatus(_ text: String) throws(DBusError) {
        guard let mode = RepeatMode(loopStatus: text) else {
            throw DBusError.invalidArgs("LoopStatus is None, Track or Playlist, not '\(text)'")
        }
        try write(.changeRepeatMode(mode))
    }

    /// `Rate`: within `MinimumRate…MaximumRate`; 0 acts as `Pause` (spec).
    func setRate(_ rate: Double) throws(DBusError) {
        let snapshot = published
        if rate == 0 {
            _ = try perform(.pause)
            return
        }
        guard rate.isFinite, rate >= snapshot.info.minimumRate, rate <= snapshot.info.maximumRate else {
            throw DBusError.invalidArgs("Rate \(rate) is outside \(snapshot.info.minimumRate)…\(snapshot.info.maximumRate)")
        }
        try write(.changePlaybackRate(rate))
    }

    func setShuffle(_ shuffle: Bool) throws(DBusError) {
        try write(.changeShuffleMode(shuffle))
    }

    /// `Volume`: the app's relative volume (G-VOLUME), clamped to 0…1 (spec: negative → 0).
    func setVolume(_ volume: Double) throws(DBusError) {
        guard !volume.isNaN else { throw DBusError.invalidArgs("Volume must be a number") }
        try write(.changeVolume(min(max(volume, 0), 1)))
    }

    private func write(_ event: RemoteCommandEvent) throws(DBusError) {
        guard published.can(event.command) else {
            throw DBusError.notSupported("\(event.command) is not supported now")
        }
        try Self.check(commands.perform(event), event.command)
    }

    private static func check(_ status: RemoteCommandStatus?, _ command: RemoteCommand) throws(DBusError) {
        switch status {
        case nil, .success?: return
        case .noSuchContent?: throw DBusError.failed("\(command): no such content")
        case .noActionableNowPlayingItem?: throw DBusError.failed("\(command): nothing is playing")
        case .commandFailed?: throw DBusError.failed("\(command) failed")
        }
    }
}
