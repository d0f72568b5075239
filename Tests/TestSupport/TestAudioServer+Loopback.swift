import Foundation

/// Streams the server makes itself: many playback streams without a client process each.
///
/// PulseAudio takes at most 64 client connections (built in: "Too many connections (64)"), so a
/// test with 200 streams cannot run 200 `paplay`s there; a `module-loopback` from the null source
/// to the null sink is a sink input like any other (properties, volume, mute) and needs no
/// connection. On PipeWire each loopback is slower to load (200 took 27 s here, PulseAudio 1.3 s
/// for 114), and many `paplay`s work too (`PipeWireServer.maxClients`).
extension TestAudioServer {
    /// Loads a loopback from the null source into the null sink whose sink input carries
    /// `properties` (and a fresh `TestStream.idProperty`); returns the module's index (for
    /// `removeModule`) and the id.
    public func addLoopbackStream(properties: [String: String] = [:]) async throws -> (module: Int, id: String) {
        let id = TestStream.newID()
        var all = properties
        all[TestStream.idProperty] = id
        // pa_modargs splits at blanks outside quotes; the proplist inside takes KEY=VALUE pairs.
        for (key, value) in all where key.contains(where: \.isWhitespace) || value.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" }) {
            throw TestSupportError("loopback stream properties must have no blanks or quotes: \(key)=\(value)")
        }
        let list = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let output = try await pactl("load-module", "module-loopback", "source=\(sourceName)", "sink=\(sinkName)",
                                     "sink_input_properties=\"\(list)\"")
        guard let module = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestSupportError("pactl load-module printed no module index: \(output)")
        }
        return (module, id)
    }

    /// The sink-input indices of the test streams with these ids (`TestStream.idProperty`) that
    /// the server lists now: id → index.
    public func sinkInputIndices(ids: Set<String>) async throws -> [String: Int] {
        var found: [String: Int] = [:]
        for entry in try await list("sink-inputs") {
            if let id = (entry["properties"] as? [String: Any])?[TestStream.idProperty] as? String, ids.contains(id),
               let index = (entry["index"] as? NSNumber)?.intValue {
                found[id] = index
            }
        }
        return found
    }
}
