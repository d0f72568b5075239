import AudioPolicyClient
import DBus
import Posix
import SessionCore
import Synchronization

/// One session the daemon serves: the engine's `AudioSession`, the unique name that owns it, its
/// object on the bus and its event subscription.
///
/// Holding this is holding the session: dropping the last reference releases the `AudioSession`,
/// which removes it from the engine (its ducking and interruptions undone, the others get their
/// *ended*). `PolicyService` therefore drops it outside its own lock.
final class ServedSession: Sendable {
    /// The daemon's number for it (1, 2, 3, … in order of registration, never reused): its object
    /// path, its name in the log and in `mprisd status`. Not the engine's id, which encodes a slot
    /// and its generation and grows huge once slots are reused.
    let number: UInt64
    /// The unique name that registered it; the only caller allowed to use its methods.
    let owner: String
    let session: AudioSession
    /// Registered with `manageStreams`: the daemon acts on its process tree's streams.
    let managesStreams: Bool

    private struct Attachments {
        var name: String
        var object: ExportedObject?
        var subscription: EventSubscription?
    }

    private let attachments: Mutex<Attachments>

    init(number: UInt64, session: AudioSession, owner: String, name: String, managesStreams: Bool = false) {
        self.number = number
        self.owner = owner
        self.session = session
        self.managesStreams = managesStreams
        attachments = Mutex(Attachments(name: name))
    }

    /// The display name given at registration (or by a later `SetConfiguration`).
    var name: String {
        get { attachments.withLock { $0.name } }
        set { attachments.withLock { $0.name = newValue } }
    }

    /// The exported object, nil before export and after `detach`.
    var object: ExportedObject? { attachments.withLock { $0.object } }

    /// How the log names it: `session 3 (sleep, :1.42)`. The name is the client's, so only a
    /// short, sanitized excerpt of it: a line per event per session stays short whatever the name.
    var label: String {
        let name = self.name
        return name.isEmpty ? "session \(number) (\(owner))" : "session \(number) (\(TerminalText.excerpt(name)), \(owner))"
    }

    func attach(object: ExportedObject, subscription: EventSubscription) {
        attachments.withLock {
            $0.object = object
            $0.subscription = subscription
        }
    }

    /// Stops its events and withdraws its object (idempotent). The engine forgets the session when
    /// the last reference to this goes.
    func detach() {
        let (object, subscription) = attachments.withLock { attachments in
            defer {
                attachments.object = nil
                attachments.subscription = nil
            }
            return (attachments.object, attachments.subscription)
        }
        subscription?.cancel()
        object?.unexport()
    }

    /// The document row of `GetStatus`.
    var status: PolicyStatus.Session {
        let configuration = session.configuration
        return PolicyStatus.Session(id: number, owner: owner, name: name,
                                    category: configuration.category.rawValue,
                                    mode: configuration.mode.rawValue,
                                    options: configuration.options.elements.map(\.rawValue),
                                    active: session.isActive, interrupted: session.isInterrupted,
                                    ducked: session.isDucked)
    }
}
