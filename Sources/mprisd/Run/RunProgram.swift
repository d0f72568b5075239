import AudioPolicyClient
import DBus
import Posix
import SessionCore

/// `mprisd run`: a program inside an audio session of the policy daemon. Registers the session,
/// activates it, runs the program, deactivates (with notify-others if asked) when it exits, and
/// exits with the program's status. Without a daemon (none running, none activatable) or without
/// a session bus the program still runs — the session is what is missing, and that is said.
enum RunProgram {
    struct Request {
        var command: [String]
        var configuration: SessionConfiguration
        var name: String
        var notifyOthers: Bool
        var verbose: Bool
    }

    static func run(_ request: Request) -> Int32 {
        let signals: SignalDescriptor
        do { signals = try ChildProgram.takeSignals() } catch {
            Output.error("mprisd run: \(error)")
            return ExitStatus.failure
        }
        let link = SessionLink.open(request)
        let child: ChildProgram
        do {
            // The streams' role follows the session (issue 15), with or without a daemon.
            let environment = RunMediaRole.environment(ChildProgram.currentEnvironment(), for: request.configuration)
            child = try ChildProgram(request.command, environment: environment, signals: signals)
        } catch {
            link?.close(notifyOthers: false)
            Output.error("mprisd run: \(error)")
            return 127
        }
        let status = child.wait()
        link?.close(notifyOthers: request.notifyOthers)
        return status
    }
}

/// The session `mprisd run` holds for its program.
private struct SessionLink {
    let connection: Connection
    let client: PolicyClient
    let session: RemoteSession
    let subscription: EventSubscription

    /// Registers and activates; nil (with a message) when there is no daemon to talk to.
    static func open(_ request: RunProgram.Request) -> SessionLink? {
        let program = request.command[0]
        let connection: Connection
        do {
            connection = try Connection(bus: .session)
        } catch {
            Output.error("mprisd run: no session bus (\(error.message)); running \(program) without an audio session")
            return nil
        }
        _ = SessionBroker.startDaemonIfNeeded(connection)
        guard DaemonProbe.answers(connection) else {
            Output.error("mprisd run: the policy daemon (\(AudioPolicyNames.busName)) does not answer within \(DaemonProbe.patience); running \(program) without an audio session")
            connection.close()
            return nil
        }
        do {
            let client = try PolicyClient(connection: connection)
            // The program does not speak our API: the daemon acts on its audio-server streams.
            let session = try client.register(request.configuration, name: request.name, manageStreams: true)
            let verbose = request.verbose
            let subscription = session.onEvent { event in
                if verbose { Output.error("mprisd run: \(event)") }
            }
            do {
                try session.activate()
            } catch {
                Output.error("mprisd run: the session was not activated (\(error)); running \(program) anyway")
            }
            return SessionLink(connection: connection, client: client, session: session, subscription: subscription)
        } catch SessionError.mediaServicesFailed {
            Output.error("mprisd run: no policy daemon on the session bus (start 'mprisd' or install the user service); running \(program) without an audio session")
        } catch {
            Output.error("mprisd run: \(error); running \(program) without an audio session")
        }
        connection.close()
        return nil
    }

    /// Deactivates (letting the sessions it interrupted resume if `notifyOthers`) and leaves.
    func close(notifyOthers: Bool) {
        do {
            try session.deactivate(notifyOthers: notifyOthers)
        } catch SessionError.isBusy {
            // Deactivated all the same.
        } catch SessionError.mediaServicesFailed {
            // The daemon went away meanwhile: its sessions went with it, nothing to undo.
        } catch {
            Output.error("mprisd run: deactivating the session: \(error)")
        }
        subscription.cancel()
        session.unregister()
        client.close()
        connection.close()
    }
}
