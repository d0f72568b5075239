import CPulse
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// Connecting, noticing the server go, and waiting for it (inotify, bounded backoff).
extension LinkCore {
    /// The first step on the thread. libpulse is loaded here, once there is an address to reach
    /// (not for a daemon that has none); without it there is no peer at all, said once, and
    /// nothing to wait for: installing the library takes a restart.
    func begin() {
        if case .unknown(let reason) = address { return absent("no audio server address: \(reason)") }
        if let reason = PulseLibrary.unavailableReason {
            shared.absence.withLock { $0 = reason }
            absenceLogged = true
            log("no audio-server peer: \(reason)")
            return
        }
        switch address {
        case .unknown:
            break
        case .remote(let server):
            connect(server: server)
        case .socket(let path):
            do throws(PosixError) {
                watch = try ServerSocketWatch(socketPath: path, loop: loop.core) { [unowned self] in socketEvent() }
            } catch {
                absent("cannot watch for the audio server at \(path): \(error)")
                return
            }
            lookForServer()
        }
    }

    /// Arms the watch and connects if the socket is there.
    func lookForServer() {
        guard case .idle = phase, let watch else { return }
        do throws(PosixError) {
            try watch.arm()
        } catch {
            absent("cannot watch for the audio server at \(watch.socketPath): \(error)")
            return
        }
        if watch.socketExists {
            connect(server: "unix:" + watch.socketPath)
        } else {
            absent("no audio server at \(watch.socketPath)")
        }
    }

    /// inotify named the socket (or its missing directory): a new series of attempts.
    func socketEvent() {
        guard case .idle = phase else { return }
        cancelRetry()
        retriesDone = 0
        lookForServer()
    }

    /// `pa_context_new_with_proplist` (application.name "mprisd", application.id
    /// "org.mprisd.AudioPolicy") and `pa_context_connect` with `PA_CONTEXT_NOAUTOSPAWN` to the
    /// explicit server: libpulse then neither starts a server nor creates a runtime directory.
    func connect(server: String) {
        guard context == nil else { return }
        let properties = pa_proplist_new()
        pa_proplist_sets(properties, "application.name", "mprisd")
        pa_proplist_sets(properties, "application.id", "org.mprisd.AudioPolicy")
        let created = pa_context_new_with_proplist(loop.core.api, "mprisd", properties)
        pa_proplist_free(properties)
        guard let created else { return connectionFailed("pa_context_new failed") }
        context = created
        shared.attempts.withLock { $0 += 1 }
        connectedServer = server
        phase = .connecting
        pa_context_set_state_callback(created, { context, userdata in
            guard let core = LinkCore.from(userdata), let context, context == core.context else { return }
            core.stateChanged(pa_context_get_state(context))
        }, userdata)
        if pa_context_connect(created, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0, context == created {
            return connectionFailed(String(cString: pa_strerror(pa_context_errno(created))))
        }
        // A socket that accepts and never answers (a hung server, something else listening there)
        // would keep the link connecting, silent, with `status` saying nothing useful.
        handshakeTimer = loop.core.timer(at: MonotonicClock.nanoseconds() + Self.handshakeSeconds * 1_000_000_000) {
            [unowned self] _ in
            cancelHandshakeTimer()
            guard case .connecting = phase else { return }
            dropContext(disconnect: true)
            connectionFailed("not answering: it accepted the connection and said nothing for \(Self.handshakeSeconds) s")
        }
    }

    func cancelHandshakeTimer() {
        if let handshakeTimer { loop.core.free(handshakeTimer) }
        handshakeTimer = nil
    }

    private func stateChanged(_ state: pa_context_state_t) {
        switch state {
        case PA_CONTEXT_READY:
            cancelHandshakeTimer()
            watch?.disarm()
            cancelRetry()
            retriesDone = 0
            startListing()
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            let reason = context.map { String(cString: pa_strerror(pa_context_errno($0))) } ?? "terminated"
            switch phase {
            case .listing, .connected: lost(reason)
            default: connectionFailed(reason)
            }
        default:
            break
        }
    }

    /// A connection attempt failed (refused: the socket may exist before the server listens, or a
    /// stale socket of a killed server): try again after the next delay, if any is left.
    func connectionFailed(_ reason: String) {
        dropContext(disconnect: false)
        absent("no audio server at \(address) (\(reason))")
        // A remote server (PULSE_SERVER=tcp:…) is tried at start only: nothing announces it.
        if case .remote = address { return }
        guard retriesDone < retryDelays.count else { return }
        let delay = retryDelays[retriesDone]
        retriesDone += 1
        cancelRetry()
        retryTimer = loop.core.timer(at: MonotonicClock.nanoseconds() + delay) { [unowned self] _ in
            cancelRetry()
            lookForServer()
        }
    }

    /// The server went away: report `.disconnected` (if `.connected` was reported), then wait.
    private func lost(_ reason: String) {
        let wasReported = isConnected
        let previous = working
        dropContext(disconnect: false)
        working = AudioInventory()
        rawStreams = [:]
        clients = [:]
        streamsByClient = [:]
        overQuota = []
        quotaLogged = []
        absenceLogged = true
        log("audio server gone (\(reason)); waiting for it at \(address)")
        shared.absence.withLock { $0 = "audio server gone (\(reason))" }
        if wasReported { publish(.disconnected(reason: reason), previous: previous) }
        retriesDone = 0
        if case .remote = address { return }
        lookForServer()
    }

    /// No server: published, logged once per absence.
    func absent(_ reason: String) {
        shared.absence.withLock { $0 = reason }
        if !absenceLogged {
            absenceLogged = true
            log("\(reason); waiting for it")
        }
    }

    /// Lets go of the context; pending operations complete with false (libpulse cancels their
    /// callbacks with the context).
    func dropContext(disconnect: Bool) {
        phase = .idle
        cancelDefaultCheck()
        cancelHandshakeTimer()
        secondOpinionAgain = false
        endSecondOpinion()
        secondOpinionDefaults = nil
        if let context {
            self.context = nil
            pa_context_set_state_callback(context, nil, nil)
            pa_context_set_subscribe_callback(context, nil, nil)
            if disconnect { pa_context_disconnect(context) }
            pa_context_unref(context)
        }
        let pending = operations.values
        operations = [:]
        for operation in pending { operation.completion(operation, false) }
    }

    func cancelRetry() {
        if let retryTimer { loop.core.free(retryTimer) }
        retryTimer = nil
    }
}
