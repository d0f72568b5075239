import Foundation

/// Devices coming and going, and the user's picks, the way a desktop's settings panel (or a USB
/// DAC being plugged in) changes them: through pactl, the same on both servers.
extension TestAudioServer {
    /// Adds a null sink named `name` (a USB DAC appearing); returns its module's index for
    /// `removeModule`.
    @discardableResult
    public func addSink(named name: String) async throws -> Int {
        let output = try await pactl("load-module", "module-null-sink", "sink_name=\(name)")
        guard let index = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestSupportError("pactl load-module printed no module index: \(output)")
        }
        return index
    }

    /// Unloads module `index` (the device it made leaves, streams on it move or end).
    public func removeModule(_ index: Int) async throws {
        try await pactl("unload-module", "\(index)")
    }

    /// The default sink's name now.
    public func defaultSink() async throws -> String {
        try await pactl("get-default-sink").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The default source's name now.
    public func defaultSource() async throws -> String {
        try await pactl("get-default-source").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The names in `pactl list short KIND` (`sinks`, `sources`).
    public func names(_ kind: String) async throws -> [String] {
        try await pactl("list", "short", kind).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            return fields.count > 1 ? String(fields[1]) : nil
        }
    }
}
