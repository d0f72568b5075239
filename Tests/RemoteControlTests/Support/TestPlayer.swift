import DBus
import RemoteControl
import Synchronization

/// A small player inside the test process: a queue of items, an MPRIS endpoint, and a command
/// center whose handlers act like a real player's (and record every call).
final class TestPlayer: Sendable {
    static let items: [NowPlayingItem] = [
        NowPlayingItem(id: "one", title: "First Song", artists: ["Ann Artist", "Bob Band"], album: "The Album",
                       albumArtists: ["Various"], trackNumber: 1, duration: .seconds(180),
                       artURL: "file:///tmp/art1.png", url: "file:///music/one.flac"),
        NowPlayingItem(id: "two", title: "Second Song", artists: ["Cy"], album: "The Album",
                       trackNumber: 2, duration: .seconds(200), url: "file:///music/two.flac"),
        NowPlayingItem(id: "three", title: "Third Song", artists: ["Di"], trackNumber: 3,
                       duration: .seconds(60), url: "file:///music/three.flac"),
    ]

    let center = RemoteCommandCenter()
    let endpoint: MPRISEndpoint
    private let recorded = Mutex<[RemoteCommandEvent]>([])
    private let index = Mutex(0)

    init(connection: Connection, name: String = "rctest", commands: [RemoteCommand] = RemoteCommand.allCases,
         processID: Int32 = 4242) throws {
        let configuration = MPRISConfiguration(name: try MPRISBusName(application: name), identity: "RC Test Player",
                                               desktopEntry: "rctest", supportedURISchemes: ["file"],
                                               supportedMIMETypes: ["audio/flac"], processID: processID)
        endpoint = try MPRISEndpoint(connection: connection, configuration: configuration, commands: center)
        center.setHandler(commands) { [weak self] event in
            self?.handle(event) ?? .commandFailed
        }
    }

    /// Every command that reached a handler, in order.
    var calls: [RemoteCommandEvent] { recorded.withLock { $0 } }

    func clearCalls() { recorded.withLock { $0.removeAll() } }

    /// The user presses play in the app: the first item plays.
    func start(at item: Int = 0, state: PlaybackState = .playing) {
        index.withLock { $0 = item }
        endpoint.update { info in
            info.item = Self.items[item]
            info.playbackState = state
            info.setElapsed(.zero)
        }
    }

    var state: PlaybackState { endpoint.nowPlaying.playbackState }

    private func handle(_ event: RemoteCommandEvent) -> RemoteCommandStatus {
        recorded.withLock { $0.append(event) }
        switch event {
        case .play:
            setState(.playing)
        case .pause:
            setState(.paused)
        case .togglePlayPause:
            setState(state == .playing ? .paused : .playing)
        case .stop:
            endpoint.update { info in
                info.playbackState = .stopped
                info.setElapsed(.zero)
            }
        case .nextTrack, .previousTrack:
            let next = index.withLock { index -> Int? in
                let next = index + (event == .nextTrack ? 1 : -1)
                guard next >= 0, next < Self.items.count else { return nil }
                index = next
                return next
            }
            guard let next else { return .noSuchContent }
            endpoint.update { info in
                info.item = Self.items[next]
                info.setElapsed(.zero)
            }
        case .seek(let offset):
            endpoint.update(discontinuity: true) { info in info.setElapsed(info.position() + offset) }
        case .changePlaybackPosition(_, let position):
            endpoint.update(discontinuity: true) { info in info.setElapsed(position) }
        case .changePlaybackRate(let rate):
            endpoint.update { info in
                info.setElapsed(info.position())
                info.rate = rate
            }
        case .changeRepeatMode(let mode):
            endpoint.update { $0.repeatMode = mode }
        case .changeShuffleMode(let shuffle):
            endpoint.update { $0.shuffle = shuffle }
        case .changeVolume(let volume):
            endpoint.update { $0.volume = volume }
        case .openURI, .raise, .quit:
            break
        }
        return .success
    }

    private func setState(_ state: PlaybackState) {
        endpoint.update { info in
            info.setElapsed(info.position())
            info.playbackState = state
        }
    }
}
