import Synchronization

/// A media key held down acts once (issue 25). A desktop's custom shortcut runs its command again
/// for every auto-repeat of the key (GNOME Shell: 35 toggles in 1.5 s), where the desktop's own
/// binding of Play asks for no repeats (`META_KEY_BINDING_IGNORE_AUTOREPEAT`). So a key press
/// (`KeyPress`, what `mprisd-control --key` sends) of play, pause, play-pause or stop that follows
/// the same key within `window` of its last press or repeat is a repeat, and does nothing; each
/// repeat extends the window, so a key held for a minute still acts once. The window outlasts
/// the first repeat's delay (500 ms by default on GNOME and Xfce, 660 ms on bare X: the longest
/// wins); a second deliberate press follows `window` after the key was let go. Next and previous
/// repeat, as the desktops' own bindings of them do (holding Next skips on). No timer: all is
/// decided when a press comes, by a clock a test can drive.
final class KeyRepeat: Sendable {
    typealias Clock = @Sendable () -> ContinuousClock.Instant

    static let window: Duration = .milliseconds(700)

    private struct Last {
        var control: PlayerControl
        var at: ContinuousClock.Instant
    }

    private let now: Clock
    private let last = Mutex<Last?>(nil)

    init(now: @escaping Clock = { ContinuousClock.now }) {
        self.now = now
    }

    /// Whether the press of `control` acts: false for a repeat of a held key that acts once.
    func admits(_ control: PlayerControl) -> Bool {
        let time = now()
        return last.withLock { last in
            defer { last = Last(control: control, at: time) }
            guard Self.actsOnce(control), let previous = last, previous.control == control else { return true }
            return time - previous.at >= Self.window
        }
    }

    /// The keys a hold must not repeat: the toggles and stop.
    static func actsOnce(_ control: PlayerControl) -> Bool {
        switch control {
        case .play, .pause, .playPause, .stop: true
        default: false
        }
    }
}
