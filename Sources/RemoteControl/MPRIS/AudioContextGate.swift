/// Who owns the MPRIS bus name, and what to ask the bus next (G-RC-CONTEXT).
///
/// A pure state machine: the endpoint says whether it *wants* the name (it is in an audio
/// context) and reports the bus's answers; the gate returns at most one request or release at a
/// time, so requests and releases are strictly serialized and a quick stop/start always ends in
/// the state last asked for, whatever the timing of the replies.
///
/// Names: the primary `org.mpris.MediaPlayer2.<app>` first; when the bus answers that someone else
/// owns it, the instance name `org.mpris.MediaPlayer2.<app>.instance<pid>` (design: "MPRIS
/// endpoint"). Requests use `DO_NOT_QUEUE` and never allow replacement: another player cannot take
/// the name away mid-playback, and this one never waits in a queue for a name it wanted earlier.
struct AudioContextGate: Sendable, Hashable {
    enum Phase: Sendable, Hashable {
        /// No name owned and no operation in flight.
        case idle
        case requesting(String)
        case owned(String)
        case releasing(String)
    }

    enum Action: Sendable, Hashable {
        case request(String)
        case release(String)
    }

    let primary: String
    let instance: String
    private(set) var phase = Phase.idle
    /// The primary name was taken at the last attempt: use the instance name.
    private var primaryTaken = false
    /// The last attempt failed (no name obtainable): do not retry until the context is left.
    private(set) var failure: String?

    init(primary: String, instance: String) {
        self.primary = primary
        self.instance = instance
    }

    /// The name owned now, if any.
    var ownedName: String? {
        if case .owned(let name) = phase { return name }
        return nil
    }

    /// A release is in flight: the published state must stay `Stopped` until it completes.
    var isReleasing: Bool {
        if case .releasing = phase { return true }
        return false
    }

    /// The next operation for `wanted`, if one is due now; the phase moves accordingly.
    mutating func next(wanted: Bool) -> Action? {
        if !wanted { failure = nil }
        switch phase {
        case .idle where wanted && failure == nil:
            let name = primaryTaken ? instance : primary
            phase = .requesting(name)
            return .request(name)
        case .owned(let name) where !wanted:
            phase = .releasing(name)
            return .release(name)
        default:
            return nil
        }
    }

    /// The bus answered a `RequestName` for `name`.
    mutating func requestFinished(_ name: String, _ result: Result<Bool, RequestFailure>) {
        guard phase == .requesting(name) else { return }
        switch result {
        case .success(true):
            phase = .owned(name)
        case .success(false):
            phase = .idle
            if name == primary && primary != instance {
                primaryTaken = true
            } else {
                primaryTaken = false
                failure = "\(name) is owned by another connection"
            }
        case .failure(let error):
            phase = .idle
            failure = error.message
        }
    }

    /// The bus answered a `ReleaseName` (or the call failed: the name is gone either way once the
    /// connection is).
    mutating func releaseFinished(_ name: String) {
        guard phase == .releasing(name) else { return }
        phase = .idle
        primaryTaken = false
    }

    /// The bus says this connection lost `name` (`NameLost`).
    mutating func nameLost(_ name: String) {
        if phase == .owned(name) {
            phase = .idle
            primaryTaken = false
        }
    }

    struct RequestFailure: Error, Sendable, Hashable {
        var message: String
    }
}
