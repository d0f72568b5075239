import AudioDevices
import RemoteControl

/// What only the audio thread touches: the sink, the open file, the position bookkeeping.
struct AudioThreadState {
    var sink: any AudioSink
    /// The PCM `sink` was opened for (nil: the default device, or the silent fallback).
    var device: String?
    var file: AudioFile?
    /// The now-playing item of the open file.
    var item: NowPlayingItem?
    /// Counts opened tracks, so every new track gets a new identity (and `mpris:trackid`).
    var generation: UInt64 = 0
    /// The track frame that the sink's counter 0 corresponds to (set on open and on seeks; negative
    /// when the track was queued behind the previous one's tail).
    var baseFrame = 0
    /// The state last published to the endpoint and the status line.
    var published: PlaybackState?
    /// The whole second last shown on the status line.
    var shownSecond = -1
    var buffer: [Float] = []
    /// Whether the sink asked for data (or was just emptied): fill its room before sleeping again.
    var mayWrite = true
    /// The relative volume the queued frames were written with (nil: nothing queued yet); a new
    /// one replaces them, so that a volume change or a duck is heard at once, not a buffer later.
    var queuedGain: Double?
    /// The queue ended: only the last track's tail is left to play out.
    var queueEnded = false
    /// Tracks (or repeats of the open one) the decoder has started but the listener does not hear
    /// yet, oldest first: what was queued before them still plays. Each is announced (MPRIS,
    /// status line) once its first frame plays (`PlayerEngine.announceIfHeard`), up to a buffer
    /// after it was decoded.
    var upcoming: [Upcoming] = []
    /// The base frame of the track the listener hears while `upcoming` is not empty (afterwards
    /// `baseFrame`: the decoder's track is the one heard).
    var heardBaseFrame = 0
    /// Underruns counted by sinks that were replaced (route moves); `sink.underruns` adds the rest.
    var earlierUnderruns = 0

    init(sink: any AudioSink, device: String?) {
        self.sink = sink
        self.device = device
    }

    /// The frame of the announced track the listener hears now (device clock: played minus delay):
    /// the open track's, or the previous one's while its tail still plays ahead of `upcoming`.
    var currentFrame: Int {
        max(0, MediaTime.frame(upcoming.isEmpty ? baseFrame : heardBaseFrame, advancedBy: sink.playedFrames))
    }

    /// Sink frames left before the next upcoming track is heard (nil: nothing upcoming).
    var framesUntilUpcoming: Int? {
        guard let next = upcoming.first else { return nil }
        return max(0, next.startFrame - sink.playedFrames)
    }

    /// Queues an announcement for what the decoder starts now, behind everything written so far.
    mutating func announceLater(_ kind: Upcoming.Kind) {
        if upcoming.isEmpty { heardBaseFrame = baseFrame }
        upcoming.append(Upcoming(kind: kind, startFrame: sink.writtenFrames))
    }

    /// The position in the open track.
    var elapsed: Duration {
        MediaTime.duration(frames: currentFrame, sampleRate: file?.info.sampleRate ?? 0)
    }

    var elapsedSeconds: Double { MediaTime.seconds(elapsed) }

    /// The whole seconds elapsed (the status line's clock ticks on these).
    var elapsedWholeSeconds: Int {
        MediaTime.wholeSeconds(frames: currentFrame, sampleRate: file?.info.sampleRate ?? 0)
    }
}

/// What `AudioThreadState.upcoming` announces once heard.
struct Upcoming {
    enum Kind {
        /// A new track: its metadata, `CanGoNext`, position 0.
        case track(NowPlayingItem)
        /// The open track again from its start (repeat one): `Seeked(0)`, same item.
        case repeatOfCurrent
    }

    var kind: Kind
    /// The sink frame (counted like `writtenFrames`) at which it starts.
    var startFrame: Int
}
