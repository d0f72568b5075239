import CPulse

/// An operation waiting for the server's answer: its completion, kept by the core (so that a
/// disconnection completes it with false: libpulse then cancels its callback) and found again by
/// the success callback through its `userdata` (this object, unretained).
final class PendingOperation {
    /// Gets the operation (with what it collected) and whether it succeeded.
    let completion: (PendingOperation, Bool) -> Void
    unowned let core: LinkCore
    /// What a read collected so far.
    var collected: [RestoreEntry] = []

    init(core: LinkCore, completion: @escaping (PendingOperation, Bool) -> Void) {
        self.core = core
        self.completion = completion
    }

    /// Completes it once.
    func finish(_ success: Bool) {
        guard core.operations.removeValue(forKey: ObjectIdentifier(self)) != nil else { return }
        completion(self, success)
    }

    /// The `pa_context_success_cb_t` of every operation.
    static let callback: pa_context_success_cb_t = { _, success, userdata in
        guard let userdata else { return }
        Unmanaged<PendingOperation>.fromOpaque(userdata).takeUnretainedValue().finish(success != 0)
    }
}

extension LinkCore {
    /// Starts `request` (given the context and the callback's userdata) for `completion`: false at
    /// once when not connected or when libpulse refuses to send it.
    func perform(_ completion: @escaping AudioServerLink.Completion,
                 _ request: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?) {
        perform({ _, success in completion(success) }, request)
    }

    /// `perform` for a request whose callback collects into the operation (`collected`).
    func perform(_ completion: @escaping (PendingOperation, Bool) -> Void,
                 _ request: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?) {
        guard isConnected, let context else { return completion(PendingOperation(core: self, completion: { _, _ in }), false) }
        let operation = PendingOperation(core: self, completion: completion)
        operations[ObjectIdentifier(operation)] = operation
        guard let sent = request(context, Unmanaged.passUnretained(operation).toOpaque()) else {
            return operation.finish(false)
        }
        pa_operation_unref(sent)
    }

    /// `pa_context_set_sink_input_volume` / `pa_context_set_source_output_volume`.
    func setVolume(_ stream: StreamID, _ volume: ChannelVolume, _ completion: @escaping AudioServerLink.Completion) {
        guard var encoded = encodeVolume(volume) else { return completion(false) }
        perform(completion) { context, userdata in
            switch stream.direction {
            case .playback:
                pa_context_set_sink_input_volume(context, stream.index, &encoded, PendingOperation.callback, userdata)
            case .capture:
                pa_context_set_source_output_volume(context, stream.index, &encoded, PendingOperation.callback, userdata)
            }
        }
    }

    /// `pa_context_set_sink_input_mute` / `pa_context_set_source_output_mute`.
    func setMute(_ stream: StreamID, _ muted: Bool, _ completion: @escaping AudioServerLink.Completion) {
        perform(completion) { context, userdata in
            switch stream.direction {
            case .playback:
                pa_context_set_sink_input_mute(context, stream.index, muted ? 1 : 0, PendingOperation.callback, userdata)
            case .capture:
                pa_context_set_source_output_mute(context, stream.index, muted ? 1 : 0, PendingOperation.callback, userdata)
            }
        }
    }
}
