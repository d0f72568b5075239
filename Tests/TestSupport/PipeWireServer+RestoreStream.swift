import Foundation

extension PipeWireServer {
    /// WirePlumber's restore-stream database, key → value (`Output/Audio:media.role:Music:mute`
    /// → `false`; roles as PipeWire names them, capitalised); empty before its first save.
    /// WirePlumber saves it 1 s after the last change (restore-stream.lua's debounce): a server
    /// killed within that second forgets the change, so a test that restarts the server and
    /// counts on the memory waits for the key here first.
    public func restoreStreamState() -> [String: String] {
        let file = stateDirectory.appendingPathComponent("wireplumber/restore-stream")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [:] }
        var state: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("[") {
            // Keys hold ':' but never '='; the value is everything after the first '='.
            guard let equals = line.firstIndex(of: "=") else { continue }
            state[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return state
    }
}
