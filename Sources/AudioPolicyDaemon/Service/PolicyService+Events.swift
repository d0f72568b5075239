import AudioPolicyClient
import DBus
import SessionCore

/// The engine's events, forwarded as signals to the session's owner only, each logged.
extension PolicyService {
    /// Runs on the `AudioSystem`'s event thread, in decision order, after the call that decided.
    func deliver(_ event: SessionEvent, to served: ServedSession) {
        guard let object = served.object else { return }
        // The secondary-audio hint concerns audio that mixes (a game's soundtrack); a non-mixable
        // session never plays under primary audio. Sending it to every session would make each
        // start and stop of primary audio cost one signal per registered session.
        if case .secondaryAudioHint = event, !served.session.configuration.traits.isMixable { return }
        if let (member, body) = PolicyWire.signal(for: event) {
            do {
                try object.emit(AudioPolicyNames.sessionInterface, member, body, destination: served.owner)
            } catch {
                log("\(served.label): \(member) not sent: \(error)")
            }
        }
        if let text = Self.describe(event) { log("\(served.label) \(text)\(cause(of: event, for: served))") }
        object.propertiesChanged(AudioPolicyNames.sessionInterface, Self.stateProperties)
    }

    /// Who did it, for the log: `, by session 7 (sleep, :1.42)` for an interruption or ducking
    /// another session caused (a client, a player, an app's implicit session: `SessionDirectory`);
    /// empty when the engine knows no single cause.
    private func cause(of event: SessionEvent, for served: ServedSession) -> String {
        guard case .interruption(.began) = event,
              case .session(let id)? = system.engine.session(served.session.id)?.interruptedBy else { return "" }
        if let other = sessions.label(of: id) { return " by \(other)" }
        return " by a media player"
    }

    /// The log text of an event; nil for volume changes, which follow every step of a slider, and
    /// for the secondary-audio hint, which every session gets on each change of primary audio.
    static func describe(_ event: SessionEvent) -> String? {
        switch event {
        case .interruption(.began(let reason)): "interruption began (\(reason))"
        case .interruption(.ended(let options)):
            options.contains(.shouldResume) ? "interruption ended (should resume)" : "interruption ended"
        case .routeChange(let change):
            "route changed (\(change.reason)): \(change.previousRoute.outputs.map(\.id)) → \(change.currentRoute.outputs.map(\.id))"
        // Sent to every other session whenever primary audio starts or stops: a line each would
        // bury the decision itself (a thousand sessions, a thousand lines per decision).
        case .secondaryAudioHint: nil
        case .ducking(.began): "ducked"
        case .ducking(.ended): "no longer ducked"
        case .delayedActivation(.granted): "delayed activation granted"
        case .delayedActivation(.refused(let error)): "delayed activation refused: \(error)"
        case .silentModeChanged(let on): "silent mode \(on ? "on" : "off")"
        case .outputVolumeChanged: nil
        case .mediaServicesLost: "media services lost (not signalled)"
        case .mediaServicesReset: "media services reset (not signalled)"
        }
    }
}
