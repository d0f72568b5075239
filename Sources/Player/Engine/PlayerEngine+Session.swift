import SessionCore

/// The user's transport actions go through the session's playback rules (G-APP-MEDIA): play
/// activates the session and claims remote control, stop deactivates it with notify-others.
extension PlayerEngine {
    func userPlay() { drive { $0.play() } }
    func userPause() { drive { $0.pause() } }
    /// PlayPause decides when its turn comes on the steps thread, after every earlier command
    /// took effect: two quick presses always cancel out.
    func userToggle() {
        drive { [weak self] controller in
            let playing = self?.shared.withLock { $0.transport == .playing } ?? false
            return playing ? controller.pause() : controller.play()
        }
    }
    func userStop() {
        drive { $0.stop() }
        change { $0.transport = .stopped }
    }

    private static func endOrphanedInterruption(_ controller: inout PlaybackController) -> [PlaybackAction] {
        guard case .interrupted = controller.state else { return [] }
        return controller.handle(.interruption(.ended(options: [])))
    }

    /// Runs one step of the `PlaybackController` on the steps thread and performs its actions:
    /// session actions on the session, output actions as transport changes for the audio thread.
    func drive(_ step: @escaping @Sendable (inout PlaybackController) -> [PlaybackAction]) {
        steps.enqueue { [weak self] in self?.performStep(step) }
    }

    /// `drive`, returning once the step was carried out (the end of playback: the session must be
    /// deactivated, with notify-others, before the process exits).
    func driveAndWait(_ step: @escaping @Sendable (inout PlaybackController) -> [PlaybackAction]) {
        steps.enqueueAndWait { [weak self] in self?.performStep(step) }
    }

    private func performStep(_ step: (inout PlaybackController) -> [PlaybackAction]) {
        control.withLock { controller in
            let actions = step(&controller)
            session.perform(actions, with: &controller) { action in
                switch action {
                case .startOutput: change { $0.transport = .playing }
                case .pauseOutput, .showInterrupted: change { if $0.transport == .playing { $0.transport = .paused } }
                case .setDucked(let on):
                    change { $0.ducked = on }
                    log.message(on ? "ducked: another app speaks over the music" : "no longer ducked")
                default: break
                }
            }
        }
    }

    /// Session events (an interruption by another session, a route change) through the rules.
    func subscribeToSession() -> EventSubscription {
        session.onEvent { [weak self] event in
            guard let self else { return }
            if case .routeChange(let change) = event { follow(change.currentRoute) }
            if sessionIsRemote, event == .mediaServicesLost || event == .mediaServicesReset {
                // The daemon restarted: only the policy went away, not the sound (the player plays
                // through ALSA itself). The client registers again and re-activates the session;
                // playback goes on meanwhile instead of pausing as for a lost audio server.
                log.message(event == .mediaServicesLost ? "the policy daemon went away; playing on"
                                                        : "registered again with the restarted policy daemon")
                // An interruption the old daemon held (a call) cannot end any more: its
                // interrupter went with it. As for any vanished interrupter, it ends without
                // resume — paused, and the user's Play works again.
                if event == .mediaServicesReset { drive { Self.endOrphanedInterruption(&$0) } }
                return
            }
            drive { $0.handle(event) }
        }
    }
}
