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

    init(sink: any AudioSink, device: String?) {
        self.sink = sink
        self.device = device
    }

    /// The frame of the open track the listener hears now (device clock: played minus delay); 0
    /// while the previous track's tail is still playing (gapless).
    var currentFrame: Int { max(0, MediaTime.frame(baseFrame, advancedBy: sink.playedFrames)) }

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
