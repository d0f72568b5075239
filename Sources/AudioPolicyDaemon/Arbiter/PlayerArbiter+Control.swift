import DBus
import RemoteControl

/// `mprisd control …`: one MPRIS call to the active player, faithfully (`PlayerControl`).
extension PlayerArbiter {
    /// The error `Control` answers when no player is in an audio context.
    public static let noPlayerError = "org.mprisd.AudioPolicy1.Error.NoPlayer"
    /// The error `Control` answers when the player did not answer within `controlTimeout`: not
    /// `NoReply`, which a client takes for the daemon's own silence.
    public static let playerNotAnsweringError = "org.mprisd.AudioPolicy1.Error.PlayerNotAnswering"
    /// How long a key press waits for the player, per call (a pause is two: its status, then
    /// Pause): within the second a person accepts for a key, and the client's bound (1 s).
    static let controlTimeoutMilliseconds = 400
    static var controlTimeout: Duration { .milliseconds(controlTimeoutMilliseconds) }

    /// A media key pressed (`KeyPress`): `control`, unless it repeats a held key that acts once
    /// (`KeyRepeat`), which is answered without a call to any player.
    public func keyPress(_ control: PlayerControl, reply: @escaping @Sendable (Result<String, DBusError>) -> Void) {
        guard keyRepeat.admits(control) else { return reply(.success("a repeat of a held key: nothing sent")) }
        self.control(control, reply: reply)
    }

    /// Carries out `control` on the active player; `reply` gets what was done (`Pause sent to
    /// org.mpris.MediaPlayer2.mpv`) once the player answered, or the player's error. What needs
    /// the player's state (pause, play-pause, position, volume) reads it afresh first: the last
    /// signal may be up to a batch old (mpv-mpris sends every 100 ms), and a toggling player must
    /// not get a Pause it would take as Play.
    public func control(_ control: PlayerControl, reply: @escaping @Sendable (Result<String, DBusError>) -> Void) {
        guard let player = active else {
            return reply(.failure(DBusError(Self.noPlayerError, "no player is in an audio context")))
        }
        let name = player.busName
        let remote = MPRISRemote(connection: connection, owner: player.owner, timeout: Self.controlTimeout)
        let log = self.log
        let owner = player.owner
        // A player that did not answer is named, with what it was asked.
        @Sendable func named(_ error: DBusError, _ member: String) -> DBusError {
            guard error.name == DBusError.Name.noReply else { return error }
            return DBusError(Self.playerNotAnsweringError,
                             "\(name) (\(owner)) did not answer \(member) within \(Self.controlTimeoutMilliseconds) ms")
        }
        @Sendable func answered(_ member: String) -> @Sendable (Result<Void, DBusError>) -> Void {
            { result in
                switch result {
                case .success:
                    log("control: \(member) sent to \(name)")
                    reply(.success("\(member) sent to \(name)"))
                case .failure(let failure):
                    let error = named(failure, member)
                    log("control: \(member) to \(name) failed: \(error)")
                    reply(.failure(error))
                }
            }
        }
        @Sendable func send(_ member: String, _ body: [DBusValue] = [], interface: String = MPRISNames.playerInterface) {
            remote.call(member, body, interface: interface, done: answered(member))
        }
        switch control {
        case .play: send("Play")
        case .next: send("Next")
        case .previous: send("Previous")
        case .stop: send("Stop")
        case .seek(let seconds): send("Seek", [.int64(Self.microseconds(seconds))])
        case .pause:
            // Nothing to pause on a player that is not playing: a Pause could start a toggling one.
            remote.pauseIfPlaying { outcome in
                switch outcome {
                case .sent: answered("Pause")(.success(()))
                case .notPlaying(let status): reply(.success("\(name) is \(status): no Pause sent"))
                case .failed(let error): reply(.failure(named(error, "Get PlaybackStatus (or the Pause after it)")))
                }
            }
        case .playPause:
            remote.property("PlaybackStatus") { result in
                switch result {
                case .success(.string("Playing")): send("Pause")
                case .success: send("Play")
                case .failure(let error): reply(.failure(named(error, "Get PlaybackStatus")))
                }
            }
        case .position(let seconds):
            remote.property("Metadata") { result in
                guard case .success(let metadata) = result else {
                    if case .failure(let error) = result { reply(.failure(named(error, "Get Metadata"))) }
                    return
                }
                guard let track = Self.trackID(in: metadata) else {
                    return reply(.failure(.failed("\(name) has no current track (no mpris:trackid)")))
                }
                send("SetPosition", [.objectPath(track), .int64(Self.microseconds(seconds))])
            }
        case .volume(let change):
            remote.property("Volume") { result in
                switch result {
                case .success(.double(let volume)):
                    let target = min(max(volume + change, 0), max(volume, 1))
                    send("Set", [.string(MPRISNames.playerInterface), .string("Volume"), .variant(.double(target))],
                         interface: StandardInterfaceName.properties)
                case .success: reply(.failure(.failed("\(name) has no Volume")))
                case .failure(let error): reply(.failure(named(error, "Get Volume")))
                }
            }
        }
    }

    static func microseconds(_ seconds: Double) -> Int64 {
        Int64(clamping: Int64((seconds * 1_000_000).rounded(.towardZero).clamped(to: -9.2e18...9.2e18)))
    }

    /// `mpris:trackid` of a `Metadata` dictionary (an object path; some players send a string).
    static func trackID(in metadata: DBusValue) -> ObjectPath? {
        guard case .dictionary(.string, .variant, let entries) = metadata else { return nil }
        for entry in entries {
            guard case .string("mpris:trackid") = entry.key, case .variant(let value) = entry.value else { continue }
            switch value {
            case .objectPath(let path): return path
            case .string(let text): return try? ObjectPath(text)
            default: return nil
            }
        }
        return nil
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
