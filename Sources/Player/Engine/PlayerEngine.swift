import AudioDevices
import AudioPolicyClient
import Posix
import RemoteControl
import SessionCore
import Synchronization
import SystemContext
#if canImport(Glibc)
import Glibc
#endif

/// `mprisd play`: plays a queue through an `AudioSink` on its own audio thread, inside a
/// `playback` session, remote-controlled over MPRIS while it is in an audio context.
///
/// Threads: the audio thread fills the device's deep buffer, then sleeps in `poll()` on the device
/// and on a `WakeEvent` (an eventfd) until the device has drained to its margin or a command comes
/// (PlayerEngine+Feeding); while paused it sleeps on the eventfd alone, so a paused player wakes up
/// zero times and a playing one about once a second. Remote commands
/// arrive on the D-Bus thread, change `shared` and wake the audio thread; the audio thread alone touches
/// the decoder and the sink, and publishes what really happened to the MPRIS endpoint. No Swift
/// concurrency anywhere (libdispatch's pool would tick once a second).
public final class PlayerEngine: Sendable {
    let shared: Mutex<SharedState>
    let options: PlayOptions
    let log: PlayerLog
    /// Signalled to wake the audio thread (a command arrived) — and waited on by it when paused.
    let wakeEvent: WakeEvent
    /// Signalled once the player finished (main thread waits on it next to the stop signals).
    let finishedEvent: WakeEvent
    let endpoint: MPRISEndpoint?
    /// The in-process engine: the session's when no policy daemon runs, and the routes' always.
    let system: AudioSystem
    /// The playback session: in `system`, or the policy daemon's (`RemoteSession`).
    let session: any AudioSessionHandle
    /// Where session steps run, in order: remote commands arrive on the D-Bus I/O thread, which
    /// must not wait for the daemon's answer to an activation.
    let steps: SerialThread
    /// Whether `session` is the policy daemon's (its restarts are not audio losses).
    let sessionIsRemote: Bool
    /// The player's subscription to its session's events (interruptions, route changes).
    let sessionEvents = Mutex<EventSubscription?>(nil)
    /// The session's playback rules; changed only under this lock, outside `shared`.
    let control: Mutex<PlaybackController>
    /// Ports, volume, configured outputs and the user's route pick, fed into `system`.
    public let routing: SystemRouting
    /// The audio thread, once it runs: the only one that may touch `audio`.
    let audioThread = OwningThread()
    /// The decoder and the sink: the audio thread's alone (checked in debug builds).
    private let boundAudio: LoopBound<AudioThreadState>
    var audio: AudioThreadState {
        get { boundAudio.value }
        _modify { yield &boundAudio.value }
    }

    /// Prepares everything; nothing plays until `start()`. `session`: the policy daemon's session
    /// for this player; nil: a session of an in-process engine (the embedded default).
    public init(options: PlayOptions, queue: PlayQueue, sink: any AudioSink, endpoint: MPRISEndpoint?,
                log: PlayerLog, session remote: (any AudioSessionHandle)? = nil) throws(PlayerError) {
        self.options = options
        self.log = log
        self.endpoint = endpoint
        shared = Mutex(SharedState(queue: queue, volume: options.volume, outputDevice: options.device))
        do throws(PosixError) {
            wakeEvent = try WakeEvent()
            finishedEvent = try WakeEvent()
            steps = try SerialThread(name: "session")
        } catch {
            throw PlayerError("\(error)")
        }
        boundAudio = LoopBound(AudioThreadState(sink: sink, device: options.device)) { [audioThread] in
            audioThread.isCurrent
        }
        system = AudioSystem()
        routing = SystemRouting(system: system) { [log] in log.message($0) }
        do {
            sessionIsRemote = remote != nil
            let session: any AudioSessionHandle = try remote ?? system.makeSession()
            self.session = session
            control = Mutex(try session.apply(.mediaPlayer()))
        } catch {
            throw PlayerError("cannot set up the playback session: \(error)")
        }
    }

    /// Readable once the player finished (never drained: it stays readable).
    public var finishedFD: Int32 { finishedEvent.fileDescriptor }

    /// Starts the audio thread and playback (the user's "play" at launch).
    public func start() throws(PlayerError) {
        let subscription = subscribeToSession()
        sessionEvents.withLock { $0 = subscription }
        follow(session.currentRoute)  // a pick made before the start (persisted, or at launch)
        // What the player starts with (--volume, --loop, --shuffle or their configured defaults),
        // published before the name appears: MPRIS clients read it at once.
        let (volume, loop, shuffled) = shared.withLock { ($0.volume, $0.queue.loop, $0.queue.shuffled) }
        endpoint?.update { info in
            info.volume = volume
            info.repeatMode = loop.repeatMode
            info.shuffle = shuffled
        }
        endpoint?.attach(session)
        installRemoteCommands()
        do throws(PosixError) {
            try NamedThread.detached(name: "audio") { self.runAudioThread() }
        } catch {
            throw PlayerError("cannot start the audio thread: \(error)")
        }
        userPlay()
    }

    /// The exit status once finished, nil before.
    public var exitStatus: Int32? { shared.withLock { $0.finished } }

    /// Stops playback for good (SIGINT, SIGTERM, MPRIS Quit): the audio thread stops the output,
    /// the endpoint announces `Stopped` and releases its name.
    public func shutdown() {
        change { $0.transport = .stopped }
    }

    /// Applies `body` to the shared state and wakes the audio thread.
    func change(_ body: (inout SharedState) -> Void) {
        shared.withLock { body(&$0) }
        wakeEvent.signal()
    }
}
