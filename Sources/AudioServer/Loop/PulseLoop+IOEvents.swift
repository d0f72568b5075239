import CPulse
#if canImport(Glibc)
import Glibc
#endif

/// A descriptor the loop polls (`pa_io_event`): libpulse's socket, or our inotify descriptor.
final class IOEvent {
    let fd: Int32
    /// What to wait for (`pa_io_event_flags_t` bits); 0 leaves it out of `poll`.
    var events: UInt32
    let handler: (UInt32) -> Void
    var destroy: (() -> Void)?
    var dead = false
    /// libpulse's `userdata` for its callbacks (nil for our own events).
    var cUserdata: UnsafeMutableRawPointer?
    weak var core: LoopCore?

    init(fd: Int32, events: UInt32, handler: @escaping (UInt32) -> Void) {
        self.fd = fd
        self.events = events
        self.handler = handler
    }
}

extension LoopCore {
    /// Adds an io event (`io_new`); it stays until `free(_:)`.
    @discardableResult
    func watch(fd: Int32, events: UInt32, handler: @escaping (UInt32) -> Void) -> IOEvent {
        let event = IOEvent(fd: fd, events: events, handler: handler)
        event.core = self
        io.append(event)
        return event
    }

    /// Frees an io event (`io_free`): it is never dispatched again, and dropped after the round.
    func free(_ event: IOEvent) {
        guard !event.dead else { return }
        event.dead = true
        hasDead = true
    }

    /// The `pollfd`s of the live io events that wait for something, in `io` order.
    func pollDescriptors() -> [pollfd] {
        polledIO = io.filter { !$0.dead && $0.events != 0 }
        return polledIO.map { pollfd(fd: $0.fd, events: Self.pollEvents($0.events), revents: 0) }
    }

    /// Calls the handlers of the io events `poll` found ready (the same events, in the same order,
    /// as the last `pollDescriptors()`; events freed meanwhile are skipped).
    func dispatchIO<C: Collection>(_ ready: C) where C.Element == pollfd {
        let polled = polledIO
        polledIO = []
        for (event, entry) in zip(polled, ready) where entry.revents != 0 && !event.dead {
            // What the handler still waits for (it may have been changed by an earlier handler).
            let flags = Self.ioFlags(entry.revents) & (event.events | PA_IO_EVENT_HANGUP.rawValue | PA_IO_EVENT_ERROR.rawValue)
            if flags != 0 { event.handler(flags) }
        }
    }

    /// `pa_io_event_flags_t` → `poll` events.
    static func pollEvents(_ flags: UInt32) -> Int16 {
        var events: Int16 = 0
        if flags & PA_IO_EVENT_INPUT.rawValue != 0 { events |= Int16(POLLIN) }
        if flags & PA_IO_EVENT_OUTPUT.rawValue != 0 { events |= Int16(POLLOUT) }
        return events
    }

    /// `poll` results → `pa_io_event_flags_t` (hang-ups and errors are always reported).
    static func ioFlags(_ revents: Int16) -> UInt32 {
        var flags: UInt32 = 0
        if revents & Int16(POLLIN) != 0 { flags |= PA_IO_EVENT_INPUT.rawValue }
        if revents & Int16(POLLOUT) != 0 { flags |= PA_IO_EVENT_OUTPUT.rawValue }
        if revents & Int16(POLLHUP) != 0 { flags |= PA_IO_EVENT_HANGUP.rawValue }
        if revents & Int16(POLLERR | POLLNVAL) != 0 { flags |= PA_IO_EVENT_ERROR.rawValue }
        return flags
    }
}
