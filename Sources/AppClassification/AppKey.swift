import AudioServer

/// Which app a stream belongs to, for its implicit session: one session per app, not per stream
/// (Zoom's capture and playback, a browser's tabs are one app). An app is its Flatpak app id when
/// it has one (its processes come and go inside the sandbox), else its process: the server's
/// `application.process.id` — two `paplay`s are two apps, a browser's audio service (which opens
/// every tab's stream and its input) one. A stream without a process id is its own app.
public struct AppKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    enum Identity: Sendable, Hashable, Comparable {
        case flatpak(String)
        case process(Int32)
        case stream(StreamID)
    }

    let identity: Identity

    public init(_ stream: AudioStream) {
        if let flatpak = stream.flatpakID, !flatpak.isEmpty {
            identity = .flatpak(flatpak)
        } else if let pid = stream.processID, pid > 0 {
            identity = .process(pid)
        } else {
            identity = .stream(stream.id)
        }
    }

    public static func < (lhs: AppKey, rhs: AppKey) -> Bool { lhs.identity < rhs.identity }

    public var description: String {
        switch identity {
        case .flatpak(let id): "flatpak \(id)"
        case .process(let pid): "pid \(pid)"
        case .stream(let id): "\(id)"
        }
    }
}
