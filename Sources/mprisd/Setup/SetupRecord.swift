import FoundationEssentials
import SystemContext

/// The changes `mprisd setup` made, in the order it made them, kept in the state directory
/// (`setup.json`) until `mprisd setup --undo` has put each one back. Each change is added — and
/// the file replaced atomically — before the change itself is made, so that a crash between the
/// two leaves a record of a change perhaps not made (undo then finds the value as it was, and says
/// so), never a change without its record.
struct SetupRecord: Codable, Sendable {
    var desktop: String
    var changes: [SetupChange] = []

    static let file = StateFile(named: "setup.json")

    /// The record on disk; nil when setup has not run (or was undone). A record that cannot be
    /// read is an error: undoing without it could not put anything back.
    static func load(from file: StateFile = file) throws(SetupError) -> SetupRecord? {
        var problem: String?
        guard let text = file.read(report: { problem = "\($0)" }) else {
            if let problem { throw SetupError("cannot read \(file.path): \(problem)") }
            return nil
        }
        do {
            return try JSONDecoder().decode(SetupRecord.self, from: Data(text.utf8))
        } catch {
            throw SetupError("\(file.path) is not a setup record (\(error)); move it away to set up anew")
        }
    }

    /// Writes the record (atomically), or removes the file when it holds no change.
    func save(to file: StateFile = file) throws(SetupError) {
        do {
            guard !changes.isEmpty else { return try file.remove() }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(self)
            try file.replace(contents: String(decoding: data, as: UTF8.self) + "\n")
        } catch let error as StateFileError {
            throw SetupError("cannot write the setup record: \(error)")
        } catch {
            throw SetupError("cannot encode the setup record: \(error)")
        }
    }

    /// The value a key had before setup first changed it, if it did.
    func before(_ store: SetupChange.Store, _ key: String) -> String?? {
        changes.first { $0.store == store && $0.key == key }.map(\.before)
    }
}

/// Why setup or undo could not go on, in one line.
struct SetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
