import RemoteControl

/// Remote commands (media keys, playerctl, headset buttons) mapped faithfully (G-RC-FAITHFUL):
/// Pause pauses, Play plays, Next goes to the next track — never a toggle, never repurposed.
/// Handlers run on the D-Bus thread and only record the request; the audio thread carries it out.
extension PlayerEngine {
    func installRemoteCommands() {
        guard let commands = endpoint?.commands else { return }
        commands.setHandler(.play) { [weak self] _ in self?.userPlay(); return .success }
        commands.setHandler(.pause) { [weak self] _ in self?.userPause(); return .success }
        commands.setHandler(.togglePlayPause) { [weak self] _ in
            self?.userToggle()
            return .success
        }
        commands.setHandler(.stop) { [weak self] _ in self?.userStop(); return .success }
        commands.setHandler(.quit) { [weak self] _ in self?.userStop(); return .success }
        commands.setHandler(.nextTrack) { [weak self] _ in
            guard let self else { return .commandFailed }
            guard shared.withLock({ $0.queue.hasNext }) else { return .noSuchContent }
            change { $0.requests.append(.next) }
            return .success
        }
        commands.setHandler(.previousTrack) { [weak self] _ in
            self?.change { $0.requests.append(.previous) }
            return .success
        }
        commands.setHandler(.seek) { [weak self] event in
            guard case .seek(let offset) = event else { return .commandFailed }
            self?.change { $0.requests.append(.seek(by: offset)) }
            return .success
        }
        commands.setHandler(.changePlaybackPosition) { [weak self] event in
            guard case .changePlaybackPosition(_, let position) = event else { return .commandFailed }
            self?.change { $0.requests.append(.setPosition(position)) }
            return .success
        }
        commands.setHandler(.changeVolume) { [weak self] event in
            guard case .changeVolume(let volume) = event, let self else { return .commandFailed }
            let clamped = min(1, max(0, volume))
            change { $0.volume = clamped }
            endpoint?.update { $0.volume = clamped }
            return .success
        }
        commands.setHandler(.changeRepeatMode) { [weak self] event in
            guard case .changeRepeatMode(let mode) = event, let self else { return .commandFailed }
            change { $0.queue.loop = LoopMode(mode) }
            endpoint?.update { $0.repeatMode = mode }
            refreshNextAvailability()
            return .success
        }
        commands.setHandler(.changeShuffleMode) { [weak self] event in
            guard case .changeShuffleMode(let on) = event, let self else { return .commandFailed }
            change {
                var random = SystemRandomNumberGenerator()
                $0.queue.setShuffle(on, random: &random)
            }
            endpoint?.update { $0.shuffle = on }
            refreshNextAvailability()
            return .success
        }
        // Rate: neither sink resamples, so Rate stays 1 (MinimumRate = MaximumRate = 1) and the
        // command has no handler. OpenUri and Raise: a headless queue player has neither.
    }
}

extension PlayerEngine {
    /// `CanGoNext` follows the queue (MPRIS: false when Next would do nothing), so a desktop's
    /// media widget greys the button on the last track of a queue that does not loop.
    func refreshNextAvailability() {
        endpoint?.commands.setEnabled(.nextTrack, shared.withLock { $0.queue.hasNext })
    }
}

extension LoopMode {
    init(_ mode: RepeatMode) {
        switch mode {
        case .none: self = .none
        case .track: self = .track
        case .playlist: self = .playlist
        }
    }

    var repeatMode: RepeatMode {
        switch self {
        case .none: .none
        case .track: .track
        case .playlist: .playlist
        }
    }
}
