/// Glue between an audio session — in-process or the daemon's — and a `PlaybackController` (G-APP-*).
extension AudioSessionHandle {
    /// Configures the session for `profile` (asking for record permission first if the profile
    /// records) and returns a controller with the profile's rules.
    public func apply(_ profile: AppProfile) throws(SessionError) -> PlaybackController {
        if profile.needsRecordPermission { requestRecordPermission() }
        try configure(profile.configuration)
        return PlaybackController(rules: profile.rules)
    }

    /// Performs `actions` of `controller` in order: session actions here, everything else through
    /// `output` (the app's player). A failed activation stops the sequence and is fed back to the
    /// controller (`activationFailed`), a delayed one too (`activationDelayed`).
    /// `activationOptions` may allow a delayed activation behind a call (G-CALLS).
    public func perform(_ actions: [PlaybackAction], with controller: inout PlaybackController,
                        activationOptions: ActivationOptions = [],
                        output: (PlaybackAction) -> Void) {
        var queue = actions[...]
        while let action = queue.popFirst() {
            switch action {
            case .activateSession:
                do throws(SessionError) {
                    if try setActive(true, options: activationOptions) == .delayed {
                        queue = controller.activationDelayed()[...]
                    }
                } catch {
                    queue = controller.activationFailed(error)[...]
                }
            case .deactivateSession(let notify):
                _ = try? setActive(false, options: notify ? [.notifyOthersOnDeactivation] : [])
            default:
                output(action)
            }
        }
    }
}

extension AudioSession {
    /// Configures a game (G-SCN-GAME): ambient if other audio plays now, else soloAmbient.
    public func applyGameProfile() throws(SessionError) -> PlaybackController {
        try apply(.game(otherAudioIsPlaying: isOtherAudioPlaying))
    }
}
