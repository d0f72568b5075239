import AudioDevices

/// The order in which `mprisd play` plays its files, and where Next, Previous and the end of a track
/// lead.
///
/// Pure bookkeeping, no I/O: the engine asks it what to open next and tells it about tracks that
/// could not be played, so a bad file is skipped and the queue goes on.
public struct PlayQueue: Sendable {
    /// The files, in the order given (as bytes: any name the kernel accepts).
    public let items: [MediaPath]
    /// Positions into `items`, in play order (shuffled or not).
    public private(set) var order: [Int]
    /// Index into `order` of the current track.
    public private(set) var position = 0
    public var loop: LoopMode
    public private(set) var shuffled: Bool

    /// Within this many seconds of a track's start, Previous goes to the previous track; later, it
    /// restarts the current one (what every hardware player does).
    public static let previousRestartThreshold = 3.0

    public init(items: [MediaPath], loop: LoopMode = .none, shuffle: Bool = false,
                random: inout some RandomNumberGenerator) {
        self.items = items
        self.loop = loop
        self.shuffled = shuffle
        order = Array(items.indices)
        if shuffle { order.shuffle(using: &random) }
    }

    public init(items: [MediaPath], loop: LoopMode = .none, shuffle: Bool = false) {
        var random = SystemRandomNumberGenerator()
        self.init(items: items, loop: loop, shuffle: shuffle, random: &random)
    }

    public var isEmpty: Bool { items.isEmpty }

    /// The file to play now, if any.
    public var current: MediaPath? {
        order.indices.contains(position) ? items[order[position]] : nil
    }

    /// Whether there is a track after this one (for `CanGoNext`).
    public var hasNext: Bool {
        !items.isEmpty && (position + 1 < order.count || loop != .none)
    }

    /// Whether Previous can go anywhere (for `CanGoPrevious`): always, since it at least restarts.
    public var hasPrevious: Bool { !items.isEmpty }

    /// The track ended by itself: repeat it, go on, wrap around, or stop.
    ///
    /// A repeat is told apart from a move because it is the same item playing again from its start
    /// (for MPRIS a jump back to 0, not a new track); a looping queue of one track repeats it too.
    public mutating func advanceAtEndOfTrack() -> EndOfTrackAction {
        if loop == .track { return current != nil ? .repeatCurrent : .stop }
        guard moveForward() else { return .stop }
        return order.count == 1 ? .repeatCurrent : .playNext
    }

    /// The user asked for the next track: loop-track does not hold it back.
    public mutating func next() -> Bool {
        moveForward()
    }

    /// The user asked for the previous track. Returns what to do.
    public mutating func previous(elapsedSeconds: Double) -> PreviousAction {
        if elapsedSeconds > Self.previousRestartThreshold || (position == 0 && loop != .playlist) {
            return .restartCurrent
        }
        position = position == 0 ? order.count - 1 : position - 1
        return .playPrevious
    }

    /// The current track could not be played: drop it from the order and move on. Returns false when
    /// nothing playable is left.
    public mutating func skipUnplayable() -> Bool {
        guard order.indices.contains(position) else { return false }
        order.remove(at: position)
        if position >= order.count {
            guard loop == .playlist, !order.isEmpty else { return false }
            position = 0
        }
        return !order.isEmpty
    }

    /// Turns shuffle on or off, keeping the current track current.
    public mutating func setShuffle(_ on: Bool, random: inout some RandomNumberGenerator) {
        guard on != shuffled, let playing = order.indices.contains(position) ? order[position] : nil else {
            shuffled = on
            return
        }
        shuffled = on
        var rest = order.filter { $0 != playing }
        if on { rest.shuffle(using: &random) } else { rest.sort() }
        order = on ? [playing] + rest : rest
        if on {
            position = 0
        } else {
            order.insert(playing, at: rest.firstIndex { $0 > playing } ?? rest.count)
            position = order.firstIndex(of: playing) ?? 0
        }
    }

    private mutating func moveForward() -> Bool {
        guard !order.isEmpty else { return false }
        if position + 1 < order.count {
            position += 1
            return true
        }
        guard loop != .none else { return false }
        position = 0
        return true
    }

    public enum EndOfTrackAction: Sendable, Equatable {
        /// The current track plays again from its start.
        case repeatCurrent
        /// Another track is current now.
        case playNext
        /// The queue is over.
        case stop
    }

    public enum PreviousAction: Sendable, Equatable {
        case restartCurrent
        case playPrevious
    }
}
