/// The answer of the engine to an activation or deactivation: the outcome for the caller and the
/// effects for every session concerned (which a daemon forwards as signals).
public struct PolicyDecision: Sendable, Hashable {
    /// What the request achieved for the caller.
    public enum Outcome: Sendable, Hashable {
        /// The request took effect.
        case done
        /// A call owns audio; the activation is queued and granted when the call ends (G-CALLS).
        case delayed
        /// The request failed. Except for `isBusy`, nothing changed.
        case failed(SessionError)
    }

    /// The reply for the requesting session (a daemon returns it from the D-Bus method).
    public var outcome: Outcome
    /// The events for every session concerned, in order (a daemon emits them as signals).
    public var effects: [PolicyEffect]

    /// A decision with `outcome` and `effects`.
    public init(_ outcome: Outcome, effects: [PolicyEffect] = []) {
        self.outcome = outcome
        self.effects = effects
    }

    /// The error of a failed request, if any.
    public var error: SessionError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }

    /// Throws the error of a failed request; returns whether the activation was delayed.
    @discardableResult
    public func get() throws(SessionError) -> Bool {
        switch outcome {
        case .done: return false
        case .delayed: return true
        case .failed(let error): throw error
        }
    }
}

/// The answer of the engine to a configuration change (G-CAT-OPTIONS).
public struct ConfigurationChange: Sendable, Hashable {
    /// The configuration now in effect (an invalid mode replaced by `.default`).
    public var configuration: SessionConfiguration
    /// The requested mode, when it was not valid for the category and so behaves as `.default`.
    public var ignoredMode: SessionMode?
    /// The events the change caused (route change `categoryChange`, interruptions, ducking).
    public var effects: [PolicyEffect]
}
