/// System-wide conditions: lock, silent mode, volume, mic mute, media services (G-SILENT,
/// G-VOLUME, G-INT-MIC; guidelines §6 mapping).
extension PolicyEngine {
    /// Screen lock (logind `LockedHint`). Locking interrupts active ambient/soloAmbient sessions
    /// (cause `.suspended`, reason `appWasSuspended`); playback, record and playAndRecord continue.
    /// Unlocking ends those interruptions with shouldResume (G-SILENT, G-INT-KINDS).
    public mutating func setLocked(_ locked: Bool) -> [PolicyEffect] {
        guard locked != conditions.isLocked else { return [] }
        conditions.isLocked = locked
        enforceSystemBlocks()
        finish()
        return takeEffects()
    }

    /// The app owning session `id` went to background (true) or came back (false) — the other half
    /// of the Linux mapping of background (guidelines §6). Like locking, it interrupts an active
    /// ambient/soloAmbient session (reason `appWasSuspended`) and ends that with shouldResume when
    /// it returns; other categories play on in background.
    public mutating func setInBackground(_ id: SessionID, _ background: Bool) throws(SessionError)
        -> [PolicyEffect] {
        guard let record = records[id] else { throw .badParam(.unknownSession(id)) }
        guard record.isInBackground != background else { return [] }
        records[id]?.isInBackground = background
        enforceSystemBlocks()
        finish()
        return takeEffects()
    }

    /// Silent mode: silences ambient/soloAmbient (see `isSilenced`), never playback or record
    /// kinds (G-SILENT). Broadcast as `silentModeChanged`.
    public mutating func setSilentMode(_ silent: Bool) -> [PolicyEffect] {
        guard silent != conditions.isSilentMode else { return [] }
        conditions.isSilentMode = silent
        return [PolicyEffect(.everySession, .silentModeChanged(silent))]
    }

    /// The system output volume as observed (ALSA master); apps only read it (G-VOLUME).
    /// Broadcast as `outputVolumeChanged` when it changes. Throws `badParam` outside 0...1.
    public mutating func setOutputVolume(_ volume: Double) throws(SessionError) -> [PolicyEffect] {
        guard volume.isFinite, (0.0...1.0).contains(volume) else { throw .badParam(.valueOutOfRange(volume)) }
        guard volume != conditions.outputVolume || !conditions.isOutputVolumeKnown else { return [] }
        conditions.outputVolume = volume
        conditions.isOutputVolumeKnown = true
        return [PolicyEffect(.everySession, .outputVolumeChanged(volume))]
    }

    /// The built-in microphone was muted/unmuted by hardware (G-INT-MIC). Muting interrupts active
    /// input sessions recording from it (reason `builtInMicMuted`) unless they set
    /// overrideMutedMicrophoneInterruption; unmuting ends the interruption *without* shouldResume:
    /// the microphone never switches back on by itself.
    public mutating func setBuiltInMicMuted(_ muted: Bool) -> [PolicyEffect] {
        guard muted != conditions.isBuiltInMicMuted else { return [] }
        conditions.isBuiltInMicMuted = muted
        enforceSystemBlocks()
        finish()
        return takeEffects()
    }

    /// Media services went away (the daemon is gone): every interruption and ducking ends without
    /// shouldResume, every session is inactive, queued activations are refused, and activations fail
    /// with `mediaServicesFailed` until `mediaServicesReset()`.
    public mutating func mediaServicesLost() -> [PolicyEffect] {
        guard conditions.mediaServicesAvailable else { return [] }
        conditions.mediaServicesAvailable = false
        for id in pending { emit(id, .delayedActivation(.refused(.mediaServicesFailed))) }
        for id in pending { records[id]?.isPending = false }
        pending = []
        for id in activeOrder.reversed() { markInactive(id) }
        for id in records.ids {
            records[id]?.victims = []
            if records[id]?.heldBy != nil {
                records[id]?.heldBy = nil
                emit(id, .interruption(.ended(options: [])))
            }
        }
        suspendedVictims = []
        micVictims = []
        routeVictims = []
        sleepVictims = []
        finish()
        effects.append(PolicyEffect(.everySession, .mediaServicesLost))
        return takeEffects()
    }

    /// Media services are back: sessions must rebuild their players and reconfigure.
    public mutating func mediaServicesReset() -> [PolicyEffect] {
        conditions.mediaServicesAvailable = true
        return [PolicyEffect(.everySession, .mediaServicesReset)]
    }
}
