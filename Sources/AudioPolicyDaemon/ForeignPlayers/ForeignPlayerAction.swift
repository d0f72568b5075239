import MPRISDirectory
import PolicyJournal
/// What a decision about a foreign player asks the tracker to do. Decisions are made under the
/// tracker's lock; actions are carried out after it is released (they call into the policy engine,
/// whose events come back into the tracker, and onto the bus).
enum ForeignPlayerAction: Sendable, Hashable {
    /// The player started playing: activate its session (non-mixable playback).
    case activate
    /// The player plays again after the policy resumed it: its session activates — and if a call
    /// began while the resume was on its way, waits for that call's end
    /// (`allowDelayedActivation`), the player paused meanwhile (`ForeignPlayer.activationDelayed`).
    case activateResumed
    /// The player was playing when the daemon started: its session joins the active ones without
    /// interrupting any (the user chose what plays; a restart is no reason to stop it).
    case adopt
    /// The player stopped or paused by itself: deactivate its session, without notify-others.
    case deactivate
    /// Ask the player to do `command`; `reason` ends the log line. A `pause` is the faithful one:
    /// sent only if the player says Playing when asked now (`MPRISRemote.pauseIfPlaying`).
    case send(ForeignPlayerCommand, reason: String)
    /// The privacy pause (its output went away): `Pause` at once, on the status it last
    /// announced, without the fresh read — the sound must stop within milliseconds, and a read
    /// costs a round trip to the player first (up to 6 ms at p99 with mpv-mpris, BENCHMARKS.md).
    case pauseAtOnce(reason: String)
    /// Read the player's `Volume` now (a ducking is about to lower it); the answer goes to
    /// `ForeignPlayer.volumeRead`.
    case readVolume
    /// Read the player's `PlaybackStatus` now (an interruption ended and the cached status may
    /// be stale); the answer goes to `ForeignPlayer.statusRead`.
    case readStatus
    /// Read `Volume` back after lowering it: a player that ignores it (Spotify) still reports
    /// the old value; the answer goes to `ForeignPlayer.volumeReadBack`.
    case readBackVolume
    /// Its `Volume` cannot duck it (missing, read-only or ignored): the stream policy ducks its
    /// audio-server streams instead, following its session.
    case duckStreams
    /// Write the change about to be made down in the journal (before it is made).
    case journal(JournalEntry.Change)
    /// Cross the change of this kind out of the journal: it is undone, or over.
    case unjournal(JournalEntry.Kind)
    /// Only a log line.
    case log(String)
}

extension ForeignPlayerAction {
    /// Only a log line: still written after a journal entry was refused (the change it guarded
    /// is not).
    var isLogLine: Bool {
        if case .log = self { return true }
        return false
    }
}
