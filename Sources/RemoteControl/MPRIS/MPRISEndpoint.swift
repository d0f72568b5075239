import DBus
import SessionCore
import Synchronization

/// An app's MPRIS endpoint: `/org/mpris/MediaPlayer2` with `org.mpris.MediaPlayer2` and
/// `org.mpris.MediaPlayer2.Player`, owned under `org.mpris.MediaPlayer2.<app>` **only while the app
/// is in an audio context** (G-RC-CONTEXT).
///
/// The audio-context gate: the name is owned exactly while the app has a now-playing item, its
/// state is playing, paused or interrupted, at least one remote command is available, and its
/// session (if attached) does not mix with others (G-APP-COOP), nor does the app say it mixes.
/// Entering: the object is already exported and its properties are complete before the name is
/// requested (mpris-proxy and playerctld read everything the moment it appears). Leaving: one
/// `PropertiesChanged` with `PlaybackStatus` `Stopped` and empty `Metadata`, then the release.
/// Requests and releases are serialized (`AudioContextGate`); a clash falls back to the instance
/// name.
///
/// The app announces changes with `update`: one call per event, one `PropertiesChanged` per
/// interface carrying only the values that changed. `Position` is extrapolated on `Get` and never
/// signalled; `Seeked` is emitted only for a discontinuity the app reports.
///
/// Threads: no Swift concurrency, no timer. Remote calls run on the connection's I/O thread and
/// call the `RemoteCommandCenter` handlers synchronously there — handlers must not block. The
/// endpoint itself is thread-safe: `update` from any thread, handlers included.
public final class MPRISEndpoint: Sendable {
    public let connection: Connection
    public let commands: RemoteCommandCenter
    public let configuration: MPRISConfiguration

    struct State {
        var info = NowPlayingInfo()
        var gate: AudioContextGate
        var published = MPRISSnapshot()
        /// `published`'s announced properties, computed once per change: a `Get` or `GetAll`
        /// looks values up instead of copying the snapshot and rebuilding them per property.
        var values = MPRISSnapshot().values
        var object: ExportedObject?
        var mixesWithOthers = false
        var session: (any AudioSessionHandle)?
        var sessionSubscription: EventSubscription?
        var trackItemID: String?
        var trackPath: ObjectPath?
        var trackCounter: UInt64 = 0
        var closed = false
        var unexported = false
        var reportedName: String?
        var nameObservers: [@Sendable (String?) -> Void] = []
        /// Waiting for `close(completion:)` to be done.
        var closeWaiters: [@Sendable () -> Void] = []
    }

    let state: Mutex<State>
    private let reconciling = ReconcilingThread()
    private let commandObserver = Mutex<UInt64?>(nil)
    private let eventToken = Mutex<UInt64?>(nil)

    /// Exports the object on `connection` (not yet owning any name: the app is not in an audio
    /// context until its first `update` puts it there).
    /// - Throws: `InvalidArgs` if another object is exported at `/org/mpris/MediaPlayer2`.
    public init(connection: Connection, configuration: MPRISConfiguration,
                commands: RemoteCommandCenter) throws(DBusError) {
        self.connection = connection
        self.commands = commands
        self.configuration = configuration
        state = Mutex(State(gate: AudioContextGate(
            primary: configuration.name.primary,
            instance: configuration.name.instance(pid: configuration.processID))))
        let object = try connection.export(MPRISNames.objectPath, interfaces: makeInterfaces())
        state.withLock { $0.object = object }
        let observer = commands.addObserver { [weak self] in self?.refresh() }
        commandObserver.withLock { $0 = observer }
        let token = connection.onEvent { [weak self] event in
            guard case .nameLost(let name) = event, let self else { return }
            self.state.withLock { $0.gate.nameLost(name) }
            self.refresh()
        }
        eventToken.withLock { $0 = token }
    }

    deinit {
        if let token = commandObserver.withLock({ $0 }) { commands.removeObserver(token) }
        if let token = eventToken.withLock({ $0 }) { connection.removeEventHandler(token) }
        let (object, owned, unexported) = state.withLock { ($0.object, $0.gate.ownedName, $0.unexported) }
        if let owned {
            // The getters are gone with `self`: announce the stop explicitly, then release.
            try? connection.send(.signal(path: MPRISNames.objectPath, interface: StandardInterfaceName.properties,
                                         member: "PropertiesChanged", body: [
                                             .string(MPRISNames.playerInterface),
                                             .dictionary(key: .string, value: .variant, [
                                                 DictionaryEntry(.string("PlaybackStatus"), .variant(.string("Stopped"))),
                                                 DictionaryEntry(.string("Metadata"), .variant(
                                                     .dictionary(key: .string, value: .variant, []))),
                                             ]),
                                             .array(element: .string, []),
                                         ]))
            connection.releaseName(owned) { _ in }
        }
        if !unexported { object?.unexport() }
    }

    // MARK: The app's side

    /// Changes the now-playing info in one step and announces the result: at most one
    /// `PropertiesChanged` per interface with only the values that changed, the audio-context
    /// gate re-evaluated (name requested or, after `Stopped`, released).
    ///
    /// - Parameter discontinuity: the position jumped (a seek, a restart of the same track): emit
    ///   `Seeked` with the new position, which `body` records (`setElapsed`). `Seeked` carries it
    ///   as recorded, not extrapolated to the moment of sending: a restart announces exactly 0.
    ///   Normal playback and track changes are not discontinuities (a new track has a new
    ///   `mpris:trackid`).
    /// - Parameter body: runs under the endpoint's lock; it must not call the endpoint. It may
    ///   change `commands` (`setEnabled`, `setHandler`…): that change is announced with this one.
    public func update(discontinuity: Bool = false, _ body: (inout NowPlayingInfo) -> Void) {
        reconcile(discontinuity: discontinuity) { body(&$0.info) }
    }

    /// The now-playing info last set by the app.
    public var nowPlaying: NowPlayingInfo { state.withLock { $0.info } }

    /// Declares that the app's audio mixes with other audio (G-APP-COOP: such an app never takes
    /// remote control), or no longer does.
    public func setMixesWithOthers(_ mixes: Bool) {
        reconcile { $0.mixesWithOthers = mixes }
    }

    /// Re-evaluates the gate (after changing the attached session's category, for instance).
    /// Asked for inside `update`'s body (a command center observer), it folds into that update.
    public func refresh() {
        if reconciling.isCurrent { return }
        reconcile { _ in }
    }

    /// Leaves the audio context for good: `Stopped`, the name released, the object withdrawn.
    public func close() {
        reconcile { $0.closed = true }
    }

    /// `close()`, and `completion` once it is done: the bus has answered the release of the name
    /// (so the `Stopped` sent before it has reached the bus too), or no name was owned, and the
    /// object is withdrawn. A program that closes its connection next loses nothing still queued.
    ///
    /// `completion` runs on the connection's I/O thread when the bus answers, or at once on the
    /// caller's thread when there is nothing to wait for. It must not block.
    public func close(completion: @escaping @Sendable () -> Void) {
        var alreadyClosed = false
        reconcile { state in
            state.closed = true
            if state.unexported { alreadyClosed = true } else { state.closeWaiters.append(completion) }
        }
        if alreadyClosed { completion() }
    }

    /// Whether the endpoint is in an audio context (it owns the name or is about to).
    public var isInAudioContext: Bool { state.withLock { $0.published.inContext } }

    /// The bus name owned now, nil outside the audio context.
    public var busName: String? { state.withLock { $0.gate.ownedName } }

    /// Calls `handler` each time the owned name changes: the name when acquired, nil as soon as it
    /// is given up (the release asked for; `close(completion:)` tells when the bus has taken it).
    /// It runs on the thread that made the change (the connection's I/O thread when the bus
    /// answered, the app's for a stop) and must not block.
    public func onBusNameChange(_ handler: @escaping @Sendable (String?) -> Void) {
        state.withLock { $0.nameObservers.append(handler) }
    }

    /// No request or release is in flight (for tests and diagnostics).
    var isNameSettled: Bool {
        state.withLock { state in
            switch state.gate.phase {
            case .idle, .owned: true
            case .requesting, .releasing: false
            }
        }
    }

    /// The snapshot the getters read.
    var published: MPRISSnapshot { state.withLock { $0.published } }

    // MARK: The gate

    /// What one state change asks for, performed outside the lock, in this order.
    private struct Plan {
        var object: ExportedObject?
        var playerNames: [String] = []
        var rootNames: [String] = []
        var seeked: Int64?
        var action: AudioContextGate.Action?
        var unexport = false
        var closed: [@Sendable () -> Void] = []
        var nameChange: (observers: [@Sendable (String?) -> Void], name: String?)?
    }

    /// Applies `change`, recomputes the published snapshot and the gate, then announces and
    /// requests/releases. The command center and the session are read under the endpoint's lock
    /// (neither calls back into the endpoint while holding its own lock), so a stale reading can
    /// never overwrite a newer one.
    func reconcile(discontinuity: Bool = false, _ change: (inout State) -> Void) {
        let plan = state.withLock { state -> Plan in
            reconciling.enter()
            defer { reconciling.leave() }
            change(&state)
            return Self.plan(&state, commands: commands.availableCommands, discontinuity: discontinuity,
                             prefix: configuration.trackPathPrefix)
        }
        execute(plan)
    }

    private static func plan(_ state: inout State, commands: Set<RemoteCommand>, discontinuity: Bool,
                             prefix: ObjectPath) -> Plan {
        let info = state.info
        if info.item?.id != state.trackItemID {
            state.trackItemID = info.item?.id
            if info.item != nil {
                state.trackCounter += 1
                state.trackPath = try? prefix.appending(String(state.trackCounter))
            } else {
                state.trackPath = nil
            }
        }
        let sessionMixes = state.session?.configuration.traits.isMixable ?? false
        let wanted = !state.closed && info.item != nil && info.playbackState != .stopped
            && !commands.isEmpty && !state.mixesWithOthers && !sessionMixes

        let oldValues = state.values
        let new = MPRISSnapshot(inContext: wanted, info: info, trackPath: state.trackPath,
                                commands: commands,
                                sessionInterrupted: state.session?.isInterrupted ?? false)
        // While a release is in flight the object keeps showing `Stopped`: re-entering publishes
        // the full state when the release is done, just before the name is requested again.
        if !(wanted && state.gate.isReleasing) { state.published = new }
        let published = state.published
        state.values = published.values

        var plan = Plan(object: state.object)
        (plan.playerNames, plan.rootNames) = MPRISSnapshot.changed(oldValues, state.values)
        if discontinuity && published.inContext {
            plan.seeked = published.position(at: published.info.timestamp).microseconds
        }
        plan.action = state.gate.next(wanted: wanted)
        if state.closed && state.gate.phase == .idle && !state.unexported {
            state.unexported = true
            plan.unexport = true
            swap(&plan.closed, &state.closeWaiters)
        }
        let owned = state.gate.ownedName
        if owned != state.reportedName {
            state.reportedName = owned
            plan.nameChange = (state.nameObservers, owned)
        }
        return plan
    }

    private func execute(_ plan: Plan) {
        if let object = plan.object {
            if !plan.playerNames.isEmpty { object.propertiesChanged(MPRISNames.playerInterface, plan.playerNames) }
            if !plan.rootNames.isEmpty { object.propertiesChanged(MPRISNames.rootInterface, plan.rootNames) }
            if let position = plan.seeked { try? object.emit(MPRISNames.playerInterface, "Seeked", [.int64(position)]) }
        }
        switch plan.action {
        case .request(let name):
            let connection = self.connection
            connection.requestName(name, flags: [.doNotQueue]) { [weak self] result in
                let owned: Result<Bool, AudioContextGate.RequestFailure>
                switch result {
                case .success(let reply): owned = .success(reply == .primaryOwner || reply == .alreadyOwner)
                case .failure(let error): owned = .failure(.init(message: error.description))
                }
                guard let self else {
                    // Dropped while asking: give back what the bus just granted.
                    if case .success(true) = owned { connection.releaseName(name) { _ in } }
                    return
                }
                self.reconcile { $0.gate.requestFinished(name, owned) }
            }
        case .release(let name):
            release(name, announcingFrom: plan.object)
        case nil:
            break
        }
        if plan.unexport { plan.object?.unexport() }
        if let (observers, name) = plan.nameChange {
            for observer in observers { observer(name) }
        }
        for completion in plan.closed { completion() }
    }
}
