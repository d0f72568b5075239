import AppClassification
import AudioServer
import SessionCore

/// What the implicit sessions should be, from the streams the server has now: which apps (one
/// session per app, `AppKey`), each one's class and whether it should be active. Pure apart from
/// the two clocks it keeps (`CallClocks`): the same streams, rules and times give the same plan.
/// `StreamPolicy+ImplicitSessions` makes the engine follow it.
///
/// - Streams covered already — by a session registered with our API (its process tree: the
///   program `mprisd run` wraps) or, for playback, by an MPRIS player — are not implicit.
///   Capture is never an MPRIS player's: a browser's microphone begins a call even though the
///   browser's tabs have MPRIS.
/// - An app's session class: a call while one of its capture streams begins one (below);
///   otherwise the class of its playback streams (the highest in `precedence`); an app that only
///   records and is no call has no session (it plays nothing to arbitrate).
/// - Active: a call while its capture qualifies; anything else while one of its playback streams
///   is not corked (G-ACTIVATE-MINIMAL: active exactly while it sounds).
/// - A call begins with a call app's capture stream (role, name table or rule; never the capture
///   of a monitor) and lasts while it records, or stays corked less than `corkedGrace`. A
///   browser's generic input is a call only once it and uncorked playback of the same process
///   (same pid or same binary) have been held together for `heuristicMinimum` (G-CALLS).
/// - A call whose capture streams have all closed goes on for `reopenGrace`: a device switch
///   closes the microphone and opens it again at once. A capture that opens in that time (a
///   browser's too, without a new minimum time) carries the call on.
public struct ImplicitPlan: Sendable {
    /// One app's implicit session as it should be.
    public struct App: Sendable {
        public var key: AppKey
        /// The stream that names the app (its first playback, else its first capture).
        public var face: AudioStream
        /// The session's class and why; nil: the app has no session (ignored by a rule, or it
        /// only records and is no call).
        public var streamClass: StreamClass
        public var hasSession: Bool
        public var wantsActive: Bool
        /// Its streams: playback first.
        public var streams: [StreamID]
        /// Its playback streams, the ones a duck or a mute acts on.
        public var playback: Set<StreamID>
        /// Why it is not (yet) a call although it may become one ("heuristic call: 1.2 s of 3 s").
        public var waiting: String?
    }

    /// The clocks of call detection, kept from one plan to the next.
    public struct CallClocks: Sendable, Hashable {
        /// Since when each corked call capture is corked.
        var corkedSince: [StreamID: ContinuousClock.Instant] = [:]
        /// Since when each browser input has been held together with playback of its process.
        var heldSince: [StreamID: ContinuousClock.Instant] = [:]
        /// The apps that were calls in the last plan: the stream that named each, and its class.
        var calls: [AppKey: Call] = [:]
        /// Since when each of those has had no capture stream (`reopenGrace`).
        var closedSince: [AppKey: ContinuousClock.Instant] = [:]

        public init() {}
    }

    /// A call as the last plan had it, for the one that goes on while its microphone reopens.
    struct Call: Sendable, Hashable {
        var face: AudioStream
        var streamClass: StreamClass
    }

    public var apps: [AppKey: App] = [:]
    /// Apps a rule says to leave alone (`ignore`): no session; listed for `mprisd apps`.
    public var ignored: [AppKey: (stream: AudioStream, streamClass: StreamClass)] = [:]
    /// When the plan changes by itself (a grace period or a minimum time runs out): decide again
    /// then.
    public var wakeAt: ContinuousClock.Instant?

    /// The precedence of playback classes within one app: a rule's own class first, then the
    /// classes that act on others, then those that only mix.
    static let precedence: [AppClass] = [.custom, .call, .screenReader, .prompt, .media, .game, .systemSound, .mixing]

    /// Plans the implicit sessions of `inventory`'s streams that `isCovered` does not claim.
    /// `appeared`: when each stream was first seen (the stream policy's one record of it; a
    /// stream not in it appears `now`), for `CallTiming.playerClaimWait`.
    public init(inventory: AudioInventory, classifier: StreamClassifier, timing: CallTiming,
                clocks: inout CallClocks, appeared: [StreamID: ContinuousClock.Instant],
                now: ContinuousClock.Instant, isCovered: (AudioStream) -> Bool) {
        var groups: [AppKey: [(AudioStream, StreamClass)]] = [:]
        for stream in inventory.sortedStreams where Self.isAppStream(stream) && !isCovered(stream) {
            let found = classifier.classify(stream, in: inventory)
            guard found.appClass != .ignore else {
                ignored[AppKey(stream)] = ignored[AppKey(stream)] ?? (stream, found)
                continue
            }
            groups[AppKey(stream), default: []].append((stream, found))
        }
        var seenCaptures: Set<StreamID> = []
        var calls: [AppKey: Call] = [:]
        for (key, members) in groups {
            var call: StreamClass?
            var waiting: String?
            let wasCall = clocks.calls[key] != nil
            for (stream, found) in members where found.isCallCapture {
                seenCaptures.insert(stream.id)
                switch callState(of: stream, found, wasCall: wasCall, inventory: inventory, timing: timing,
                                 clocks: &clocks, now: now) {
                case .live: call = call ?? found
                case .until(let instant, let why):
                    if found.isHeuristic { waiting = why } else { call = call ?? found }
                    wakeAt = min(wakeAt ?? instant, instant)
                case .none: break
                }
            }
            if call == nil, !members.contains(where: { $0.1.isCallCapture }), let previous = clocks.calls[key],
               let due = Self.reopening(key, clocks: &clocks, timing: timing, now: now) {
                call = previous.streamClass
                wakeAt = min(wakeAt ?? due, due)
            }
            let playback = members.filter { $0.0.id.direction == .playback }
            let playing = playback.contains { !$0.0.isCorked }
            let face = (playback.first ?? members[0]).0
            var app = App(key: key, face: face, streamClass: members[0].1, hasSession: false, wantsActive: false,
                          streams: (playback + members.filter { $0.0.id.direction == .capture }).map(\.0.id),
                          playback: Set(playback.map(\.0.id)), waiting: waiting)
            if let call {
                app.streamClass = call
                app.hasSession = true
                app.wantsActive = true
                calls[key] = Call(face: face, streamClass: call)
            } else if let best = Self.strongest(playback.map(\.1)) {
                app.streamClass = best
                app.hasSession = true
                // A call app's playback alone (Zoom ringing, or between calls) begins nothing.
                app.wantsActive = playing && !(best.configuration?.traits.isCall ?? false)
                // Non-mixing playback waits for an MPRIS player's claim (`playerClaimWait`), and
                // a role that may be a UI sound until it has outlasted one (`ambiguousRoleWait`).
                if app.wantsActive, best.configuration?.traits.isMixable == false {
                    let first = playback.map { appeared[$0.0.id] ?? now }.min() ?? now
                    let due = first + (best.isAmbiguousRole ? timing.ambiguousRoleWait : timing.playerClaimWait)
                    if now < due {
                        app.wantsActive = false
                        wakeAt = min(wakeAt ?? due, due)
                    }
                }
            } else {
                app.streamClass = members.first { $0.1.isCallCapture }?.1 ?? members[0].1
            }
            apps[key] = app
        }
        // A call app whose streams have all closed: its call goes on while its microphone may
        // reopen, with the stream that named it and no stream of its own.
        for (key, previous) in clocks.calls.sorted(by: { $0.key < $1.key }) where groups[key] == nil {
            guard let due = Self.reopening(key, clocks: &clocks, timing: timing, now: now) else { continue }
            wakeAt = min(wakeAt ?? due, due)
            apps[key] = App(key: key, face: previous.face, streamClass: previous.streamClass, hasSession: true,
                            wantsActive: true, streams: [], playback: [], waiting: nil)
            calls[key] = previous
        }
        // Clocks of captures that are gone are dropped; so are those of calls that ended or whose
        // microphone is open again.
        clocks.corkedSince = clocks.corkedSince.filter { seenCaptures.contains($0.key) }
        clocks.heldSince = clocks.heldSince.filter { seenCaptures.contains($0.key) }
        clocks.closedSince = clocks.closedSince.filter { key, _ in
            calls[key] != nil && !(groups[key]?.contains { $0.1.isCallCapture } ?? false)
        }
        clocks.calls = calls
    }

    /// When the call of `key`, whose capture streams have all closed, ends: nil once
    /// `reopenGrace` has run out since they closed (first seen closed now).
    private static func reopening(_ key: AppKey, clocks: inout CallClocks, timing: CallTiming,
                                  now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let since = clocks.closedSince[key] ?? now
        clocks.closedSince[key] = since
        let due = since + timing.reopenGrace
        return now < due ? due : nil
    }

    /// A stream of an app: one with a process id (or a Flatpak app id). Streams without are the
    /// server's own — module-loopback, module-combine-sink, a network tunnel — which no user
    /// started and no guideline speaks of.
    static func isAppStream(_ stream: AudioStream) -> Bool {
        (stream.processID ?? 0) > 0 || !(stream.flatpakID ?? "").isEmpty
    }

    /// The strongest of an app's playback classes (`precedence`).
    static func strongest(_ classes: [StreamClass]) -> StreamClass? {
        classes.min { rank($0) < rank($1) }
    }

    private static func rank(_ found: StreamClass) -> Int {
        precedence.firstIndex(of: found.appClass) ?? precedence.count
    }

    enum CallState {
        /// A call now, for as long as the stream stays as it is.
        case live
        /// A call until (or, heuristic, not before) this instant.
        case until(ContinuousClock.Instant, String)
        case none
    }

    /// `wasCall`: the app was a call in the last plan (a browser's reopened input carries its
    /// call on at once).
    private func callState(of stream: AudioStream, _ found: StreamClass, wasCall: Bool, inventory: AudioInventory,
                           timing: CallTiming, clocks: inout CallClocks, now: ContinuousClock.Instant) -> CallState {
        if found.isHeuristic {
            clocks.corkedSince[stream.id] = nil
            guard !stream.isCorked, hasPlayback(alongside: stream, in: inventory) else {
                clocks.heldSince[stream.id] = nil
                return .none
            }
            if wasCall {
                clocks.heldSince[stream.id] = clocks.heldSince[stream.id] ?? now - timing.heuristicMinimum
                return .live
            }
            let since = clocks.heldSince[stream.id] ?? now
            clocks.heldSince[stream.id] = since
            let due = since + timing.heuristicMinimum
            if now >= due { return .live }
            return .until(due, "heuristic call: held \(Self.seconds(now - since)) of \(Self.seconds(timing.heuristicMinimum)) with playback")
        }
        guard stream.isCorked else {
            clocks.corkedSince[stream.id] = nil
            return .live
        }
        let since = clocks.corkedSince[stream.id] ?? now
        clocks.corkedSince[stream.id] = since
        let end = since + timing.corkedGrace
        return now < end ? .until(end, "capture corked \(Self.seconds(now - since)) of \(Self.seconds(timing.corkedGrace))") : .none
    }

    /// Uncorked playback of the process that records (same pid, or same binary: a browser's
    /// audio may be played by another of its processes), whatever covers it.
    private func hasPlayback(alongside capture: AudioStream, in inventory: AudioInventory) -> Bool {
        inventory.streams.values.contains { other in
            guard other.id.direction == .playback, !other.isCorked else { return false }
            if let pid = capture.processID, pid > 0, other.processID == pid { return true }
            if let binary = capture.binary, !binary.isEmpty, other.binary == binary { return true }
            return false
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = Int64(seconds) * 10 + attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
