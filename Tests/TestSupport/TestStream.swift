import Foundation

/// What `PlayingStream` and `CaptureStream` share: a unique `mprisd.test.id` property that finds
/// the stream in the server's lists, whatever else the test set.
public enum TestStream {
    /// The property every test stream carries, with a value unique to the stream.
    public static let idProperty = "mprisd.test.id"

    /// A fresh value for `idProperty`.
    static func newID() -> String { "t-" + UUID().uuidString.prefix(12).lowercased() }

    /// The stream properties as `--property=KEY=VALUE` arguments of paplay/parec.
    static func propertyArguments(_ properties: [String: String]) -> [String] {
        properties.sorted { $0.key < $1.key }.map { "--property=\($0.key)=\($0.value)" }
    }

    /// The index of the object in `pactl list KIND` (`sink-inputs`, `source-outputs`) whose
    /// `idProperty` is `id`, once it appears (polled: pactl has no wait); throws after `timeout`.
    static func index(of id: String, in kind: String, on server: any TestAudioServer, process: BackgroundProcess,
                      timeout: Duration) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while true {
            let objects = try await server.list(kind)
            for object in objects {
                if let properties = object["properties"] as? [String: Any],
                   properties[idProperty] as? String == id,
                   let index = (object["index"] as? NSNumber)?.intValue {
                    return index
                }
            }
            guard process.isRunning else {
                throw TestSupportError("\(process.name) exited (status \(process.exitStatus ?? -1)) before its stream "
                                       + "appeared in \(kind): \(process.standardError)")
            }
            guard ContinuousClock.now < deadline else {
                throw TestSupportError("no \(kind) entry with \(idProperty)=\(id) within \(timeout); server log:\n\(server.log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `timeout -s KILL SECONDS`: a client dies by itself if the test that started it is gone.
    static func wrapped(_ program: String, lifetime: Duration) -> [String] {
        ["-s", "KILL", "\(max(1, lifetime.components.seconds))", program]
    }
}
