import AudioPolicyClient
import RemoteControl
import SessionCore
import Synchronization

/// A podcast player with no sound: what it would play is what it prints and what it shows on
/// MPRIS. Its audio session says *spoken audio*, so a navigation prompt or a call pauses it
/// instead of talking over it, and it resumes when the other app says it may.
final class Podcast: Sendable {
    static let episodes = ["Why Linux audio", "Sessions, explained", "The media keys"]

    /// A media player whose audio is speech: paused, not ducked, by a navigation prompt.
    static let profile: AppProfile = {
        var profile = AppProfile.mediaPlayer()
        profile.configuration.mode = .spokenAudio
        return profile
    }()

    private struct State {
        var controller: PlaybackController
        var episode = 0
    }

    private let session: any AudioSessionHandle
    private let endpoint: MPRISEndpoint
    private let state: Mutex<State>

    init(session: any AudioSessionHandle, endpoint: MPRISEndpoint) throws(SessionError) {
        self.session = session
        self.endpoint = endpoint
        state = Mutex(State(controller: try session.apply(Self.profile)))
    }

    func play() { perform { $0.play() } }
    func pause() { perform { $0.pause() } }
    /// Interruptions, and their end with or without *should resume*.
    func handle(_ event: SessionEvent) { perform { $0.handle(event) } }

    func next() {
        state.withLock { state in
            state.episode = (state.episode + 1) % Self.episodes.count
            show(state.episode, playing: state.controller.isPlaying)
        }
    }

    /// The controller decides; the session (the daemon's, or an in-process one) does the session
    /// part, and the rest is ours to show. Events come on the session's event thread, after the
    /// call that caused them, so holding the lock here is safe.
    private func perform(_ decide: (inout PlaybackController) -> [PlaybackAction]) {
        state.withLock { state in
            session.perform(decide(&state.controller), with: &state.controller) { action in
                switch action {
                case .startOutput: show(state.episode, playing: true)
                case .pauseOutput: show(state.episode, playing: false)
                case .showInterrupted: say("interrupted")
                default: break
                }
            }
        }
    }

    private func show(_ episode: Int, playing: Bool) {
        let title = Self.episodes[episode]
        endpoint.update { info in
            info.item = NowPlayingItem(id: "episode-\(episode + 1)", title: title, artists: ["mprisd"])
            info.playbackState = playing ? .playing : .paused
        }
        say("\(playing ? "playing" : "paused"): \(title)")
    }
}
