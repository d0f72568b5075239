import FoundationEssentials

/// `mprisd status --json` and `GetStatus`: the status document for programs (see
/// docs/audio-policy-api.md). Sorted keys and indentation make it stable to diff and to read;
/// slashes stay unescaped so object paths look like object paths.
extension PolicyStatus {
    /// The document; absent values (`outputVolume`, `route.override`) are left out.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Encoding these plain fields fails only for a non-finite volume, which has no JSON form:
        // the output volume is then reported as unknown and a stream's as 0, rather than dropping
        // the whole document.
        if let data = try? encoder.encode(self) { return String(decoding: data, as: UTF8.self) }
        var known = self
        known.outputVolume = known.outputVolume.flatMap { $0.isFinite ? $0 : nil }
        known.streams = known.streams?.map { stream in
            var stream = stream
            if !stream.volume.isFinite { stream.volume = 0 }
            return stream
        }
        return (try? encoder.encode(known)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Reads a document written by `json()` (by this or a newer daemon: unknown keys are ignored).
    public static func decode(json: String) throws -> PolicyStatus {
        try JSONDecoder().decode(PolicyStatus.self, from: Data(json.utf8))
    }
}
