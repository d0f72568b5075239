import Foundation

/// What a listener hears: the level of a server's null sink, recorded from its monitor with a real
/// `parec` (`CaptureStream`). Whatever volumes and mute flags the server reports, this shows
/// whether a duck or a mute really happened.
///
/// Levels are RMS in 0…1 of full scale: a sine of amplitude A reads A/√2; both servers scale a
/// stream's volume cubically (30 % is 0.3³ = 0.027 in amplitude); silence reads 0.
public enum Loudness {
    /// Audio discarded at the start of a recording before anything is measured: the monitor's
    /// first fragment may predate the stream's link.
    public static let settle: Duration = .milliseconds(100)

    /// The RMS (0…1 of full scale) of interleaved s16 samples; 0 for none.
    public static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for sample in samples {
            let value = Double(sample)
            sum += value * value
        }
        return (sum / Double(samples.count)).squareRoot() / 32_768
    }

    /// The factor by which a stream's amplitude falls at `percent` % volume on both servers (their
    /// volume scale is cubic): 30 → 0.027.
    public static func amplitudeFactor(volumePercent percent: Double) -> Double {
        let linear = percent / 100
        return linear * linear * linear
    }

    /// Records `source` (default: the null sink's monitor) for `duration` after `settle`, and
    /// returns its RMS.
    public static func measure(_ server: any TestAudioServer, source: String? = nil,
                               duration: Duration = .milliseconds(300), timeout: Duration = .seconds(10)) async throws -> Double {
        let capture = try CaptureStream(on: server, device: source)
        defer { capture.stop() }
        try await capture.waitForFrames(CaptureStream.frames(in: settle), timeout: timeout)
        return try await capture.measure(duration, timeout: timeout)
    }

    /// Records `source` (default: the monitor) until the RMS of the last `window` satisfies
    /// `condition`, and returns that RMS; throws after `timeout` with the last RMS seen. A test
    /// that waits several times keeps one `CaptureStream` and calls its `waitForLoudness` instead.
    public static func waitUntil(_ server: any TestAudioServer, source: String? = nil,
                                 window: Duration = .milliseconds(100), timeout: Duration = .seconds(10),
                                 _ condition: @escaping @Sendable (Double) -> Bool) async throws -> Double {
        let capture = try CaptureStream(on: server, device: source)
        defer { capture.stop() }
        try await capture.waitForFrames(CaptureStream.frames(in: settle), timeout: timeout)
        return try await capture.waitForLoudness(window: window, timeout: timeout, condition)
    }
}

extension Double {
    /// Whether this is within `tolerance` (a fraction: 0.1 is ±10 %) of `expected`.
    public func isClose(to expected: Double, within tolerance: Double) -> Bool {
        abs(self - expected) <= abs(expected) * tolerance
    }
}
