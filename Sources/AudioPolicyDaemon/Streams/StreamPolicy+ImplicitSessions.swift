import AppClassification
import AudioPolicyClient
import AudioServer
import SessionCore

/// Apps that know nothing of mprisd — a Zoom call, a navigation prompt, a notification sound —
/// become implicit sessions of the daemon's engine, one per app (`ImplicitPlan`), so that the
/// guidelines hold for them too: the engine arbitrates them with the daemon's clients and the
/// MPRIS players, and what it decides reaches each app's streams through the rest of the stream
/// policy (ducked by volume, muted while interrupted, held or silenced) and the players through
/// MPRIS (paused and resumed).
///
/// Decided on the policy's thread after every inventory change, every change of the rules, and
/// when a call's grace period or a browser input's minimum time runs out (a timer of the link's
/// loop, only while one is pending). Engine calls are made outside the lock.
extension StreamPolicy {
    /// From now on, streams not covered by a session of our API or an MPRIS player become
    /// implicit sessions of `setup.system`.
    public func enableImplicitSessions(_ setup: ImplicitSessionSetup) {
        // Silent mode and the lock mute the apps' ambient sessions; a change also retries the
        // activations the lock refused.
        let conditions = setup.system.onConditionsChange { [weak self] conditions in
            self?.thread.enqueue { [weak self] in self?.conditionsChanged(conditions) }
        }
        let now = setup.system.conditions
        thread.enqueue { [weak self] in
            guard let self else { return conditions.cancel() }
            self.state.withLock { state in
                state.implicit.conditions?.cancel()
                state.implicit.conditions = conditions
                state.implicit.isSilentMode = now.isSilentMode
                state.implicit.isLocked = now.isLocked
                var setup = setup
                // Rules reloaded while this was on its way are newer than the setup's.
                if let newer = state.implicit.reloadedRules { setup.rules = newer }
                state.implicit.setup = setup
                state.implicit.classifier = StreamClassifier(rules: setup.rules)
            }
            self.decideAll()
        }
    }

    /// The user's apps file changed: every app is classified again (a session whose class
    /// changes is reconfigured).
    public func setRules(_ rules: AppRules) {
        thread.enqueue { [weak self] in
            guard let self else { return }
            self.state.withLock { state in
                state.implicit.reloadedRules = rules
                state.implicit.setup?.rules = rules
                state.implicit.classifier = StreamClassifier(rules: rules)
            }
            self.decideAll()
        }
    }

    /// Silent mode or the lock changed (on the policy's thread).
    private func conditionsChanged(_ conditions: SystemConditions) {
        let changed = state.withLock { state -> Bool in
            guard state.implicit.isSilentMode != conditions.isSilentMode || state.implicit.isLocked != conditions.isLocked
            else { return false }
            state.implicit.isSilentMode = conditions.isSilentMode
            state.implicit.isLocked = conditions.isLocked
            for number in state.implicit.sessions.values.map(\.number) {
                state.sessions[number]?.isSilentMode = conditions.isSilentMode
                state.sessions[number]?.isLocked = conditions.isLocked
            }
            return true
        }
        if changed { decideAll() }
    }

    /// Implicit sessions, then every stream (on the policy's thread).
    func decideAll() {
        let actions = updateImplicitSessions()
        perform(actions + state.withLock { state in state.stopped ? [] : reconcile(&state) })
    }

    /// Makes the implicit sessions follow the plan of the streams there are now (on the
    /// policy's thread).
    func updateImplicitSessions() -> [StreamAction] {
        let now = clock.now()
        let planned = state.withLock { state -> (ImplicitPlan, [AppKey: ImplicitSession], ImplicitSessionSetup)? in
            guard !state.stopped, let setup = state.implicit.setup else { return nil }
            var clocks = state.implicit.clocks
            let inventory = state.inventory
            let classifier = state.implicit.classifier
            state.noteAppearances(at: now)
            let appeared = state.appeared
            let plan = ImplicitPlan(inventory: inventory, classifier: classifier, timing: setup.timing,
                                    clocks: &clocks, appeared: appeared, now: now) { stream in
                coveringSession(of: stream, in: &state) != nil
            }
            state.implicit.clocks = clocks
            return (plan, state.implicit.sessions, setup)
        }
        guard let (plan, known, setup) = planned else { return [] }
        var sessions = known
        var actions: [StreamAction] = []
        var made: [UInt64: EventSubscription] = [:]
        var held: [UInt64: Bool] = [:]
        for (key, implicit) in known.sorted(by: { $0.key < $1.key }) where plan.apps[key]?.hasSession != true {
            actions += deactivate(implicit, setup: setup, reason: "its streams are gone")
            actions.append(.log("\(implicit.label): implicit session \(implicit.number) ended"))
            setup.sessions.remove(implicit.session.id)
            sessions[key] = nil
        }
        for app in plan.apps.values.sorted(by: { $0.key < $1.key }) where app.hasSession {
            guard let configuration = app.streamClass.configuration else { continue }
            var implicit: ImplicitSession
            if var existing = sessions[app.key] {
                if existing.configuration != configuration || existing.streamClass.appClass != app.streamClass.appClass {
                    if existing.isActive {
                        actions += deactivate(existing, setup: setup, reason: "it is now \(app.streamClass)")
                        existing.isActive = false
                        held[existing.number] = false
                    }
                    do {
                        try existing.session.setCategory(configuration.category, mode: configuration.mode,
                                                         options: configuration.options)
                        actions.append(.log("\(existing.label): session \(existing.number) is now \(app.streamClass)"))
                    } catch {
                        actions.append(.log("\(existing.label): session \(existing.number) cannot become \(configuration): \(error)"))
                    }
                    existing.configuration = configuration
                    existing.streamClass = app.streamClass
                }
                implicit = existing
            } else {
                let session: AudioSession
                do {
                    session = try setup.system.makeSession(configuration)
                } catch {
                    actions.append(.log("\(Self.label(of: app)): no implicit session (\(error))"))
                    continue
                }
                // The app records already: a desktop has no permission prompt to wait for, and a
                // call app's playAndRecord activation must not be refused for want of asking.
                _ = session.requestRecordPermission()
                let number = setup.sessions.nextNumber()
                made[number] = session.onEvent { [weak self] event in
                    guard let self else { return }
                    self.thread.enqueue { [weak self] in self?.sessionEvent(event, of: number) }
                }
                implicit = ImplicitSession(key: app.key, number: number, session: session, streamClass: app.streamClass,
                                           configuration: configuration, label: Self.label(of: app))
                // Known by its label before it acts: a player it pauses asks who did it at once.
                setup.sessions.add(SessionDirectory.Entry(id: session.id, number: number, label: implicit.label,
                                                          owner: nil, kind: .implicit))
                actions.append(.log("\(implicit.label): implicit session \(number), \(app.streamClass)"))
            }
            if app.wantsActive && !implicit.isActive {
                // G-CALLS: a non-mixing activation during a call waits for its end
                // (allowDelayedActivation); its streams are muted meanwhile (`isHeld`).
                do {
                    let result = try implicit.session.setActive(true, options: [.allowDelayedActivation])
                    implicit.isActive = true
                    held[implicit.number] = result == .delayed
                    actions.append(.log("\(implicit.label): session \(implicit.number) "
                        + (result == .delayed ? "waits for the call to end (muted meanwhile)" : "active")))
                } catch {
                    actions.append(.log("\(implicit.label): session \(implicit.number) not activated: \(error)"))
                }
            } else if !app.wantsActive && implicit.isActive {
                actions += deactivate(implicit, setup: setup, reason: "it no longer plays")
                implicit.isActive = false
                held[implicit.number] = false
            }
            sessions[app.key] = implicit
        }
        return actions + record(plan, sessions: sessions, known: known, made: made, held: held, setup: setup, now: now)
    }

    /// The interruption of session `number` ended: if it is an implicit session, the engine made
    /// it inactive when it interrupted it, so it is asked to be active again (by the next
    /// `decideAll`) if its app still plays — as an app whose interruption ended calls `setActive`
    /// again. Else the app would sound on, unmuted, with an inactive session: ducked by no prompt,
    /// interrupted by no next call. Returns whether it was one (on the policy's thread).
    func implicitInterruptionEnded(_ number: UInt64) -> Bool {
        state.withLock { state in
            guard let key = state.implicit.sessions.first(where: { $0.value.number == number })?.key else { return false }
            state.implicit.sessions[key]?.isActive = false
            return true
        }
    }

    /// Deactivates `implicit` if it is active, notifying the others where its class says so.
    private func deactivate(_ implicit: ImplicitSession, setup: ImplicitSessionSetup, reason: String) -> [StreamAction] {
        guard implicit.isActive else { return [] }
        let notify = implicit.notifiesOnDeactivation(resumeAfterCalls: setup.resumeAfterCalls)
        do {
            try implicit.session.setActive(false, options: notify ? [.notifyOthersOnDeactivation] : [])
        } catch {
            // isBusy: deactivated all the same.
        }
        return [.log("\(implicit.label): session \(implicit.number) inactive (\(reason))\(notify ? "; the others may resume" : "")")]
    }

    /// Writes the outcome back: the sessions, their managed entries (which streams are whose),
    /// the status rows, and the timer for the next change the plan makes by itself.
    private func record(_ plan: ImplicitPlan, sessions: [AppKey: ImplicitSession], known: [AppKey: ImplicitSession],
                        made: [UInt64: EventSubscription], held: [UInt64: Bool], setup: ImplicitSessionSetup,
                        now: ContinuousClock.Instant) -> [StreamAction] {
        let flags = sessions.mapValues { implicit in
            (ducked: implicit.session.isDucked, interrupted: implicit.session.isInterrupted)
        }
        let (stale, notes) = state.withLock { state -> (PolicyTimer?, [StreamAction]) in
            guard !state.stopped else {
                for events in made.values { events.cancel() }
                return (nil, [])
            }
            for (key, implicit) in known where sessions[key]?.number != implicit.number {
                state.sessions.removeValue(forKey: implicit.number)?.events?.cancel()
            }
            for (key, implicit) in sessions {
                let app = plan.apps[key]
                let playback = app?.playback ?? []
                let traits = implicit.configuration.traits
                let protected = implicit.streamClass.isProtected
                var managed = state.sessions[implicit.number] ?? Managed(
                    number: implicit.number, label: implicit.label, owner: "", pid: nil,
                    mutesOnInterruption: false, isDucked: flags[key]?.ducked ?? false,
                    isInterrupted: flags[key]?.interrupted ?? false)
                if let events = made[implicit.number] { managed.events = events }
                managed.label = implicit.label
                managed.streams = .implicit(key, playback)
                // A screen reader is never ducked, muted or silenced; a call's streams are never
                // muted by another call joining (a second call app does not end the first).
                managed.ducksStreams = !protected
                managed.mutesOnInterruption = !protected && !traits.isCall
                managed.isSilenceable = !protected && implicit.configuration.category.isSilencedBySilentModeAndLock
                if let isHeld = held[implicit.number] { managed.isHeld = isHeld }
                managed.isSilentMode = state.implicit.isSilentMode
                managed.isLocked = state.implicit.isLocked
                state.sessions[implicit.number] = managed
            }
            state.implicit.sessions = sessions
            let notes = Self.candidateNotes(before: state.implicit.waiting, plan: plan)
            updateRows(plan, sessions: sessions, in: &state)
            guard state.implicit.wakeAt != plan.wakeAt else { return (nil, notes) }
            let stale = state.implicit.wake
            state.implicit.wakeAt = plan.wakeAt
            state.implicit.wake = plan.wakeAt.flatMap { due in
                clock.after(due - now) { [weak self] in
                    self?.thread.enqueue { [weak self] in self?.wakeUp() }
                }
            }
            return (stale, notes)
        }
        stale?.cancel()
        return notes
    }

    /// Log lines for apps that may become a call (a browser's input: `waiting`), and for those
    /// that stopped being candidates without becoming one (voice search).
    private static func candidateNotes(before: [AppKey: String], plan: ImplicitPlan) -> [StreamAction] {
        var notes: [StreamAction] = []
        for (key, app) in plan.apps.sorted(by: { $0.key < $1.key }) {
            if let waiting = app.waiting, before[key] == nil {
                notes.append(.log("\(label(of: app)): may be a call (\(app.streamClass)); \(waiting)"))
            } else if before[key] != nil, app.waiting == nil {
                let became = app.hasSession && app.streamClass.configuration?.traits.isCall == true && app.wantsActive
                notes.append(.log("\(label(of: app)): " + (became ? "held long enough: a call" : "no call (not held long enough)")))
            }
        }
        for key in before.keys where plan.apps[key] == nil {
            notes.append(.log("\(key): no call (its streams ended before the minimum time)"))
        }
        return notes
    }

    /// A grace period or a minimum time ran out (on the policy's thread).
    private func wakeUp() {
        state.withLock { state in
            state.implicit.wake = nil
            state.implicit.wakeAt = nil
        }
        decideAll()
    }

    /// Ends every implicit session (the policy stops): their others are notified as usual.
    func endImplicitSessions() {
        let (sessions, setup, timer, conditions) = state.withLock { state in
            defer {
                state.implicit.sessions = [:]
                state.implicit.wake = nil
                state.implicit.wakeAt = nil
                state.implicit.conditions = nil
            }
            return (state.implicit.sessions, state.implicit.setup, state.implicit.wake, state.implicit.conditions)
        }
        timer?.cancel()
        conditions?.cancel()
        guard let setup else { return }
        for implicit in sessions.values {
            _ = deactivate(implicit, setup: setup, reason: "the daemon stops")
            setup.sessions.remove(implicit.session.id)
        }
    }
}
