import Foundation
import TestSupport

/// The checked-out repository the tests run from (docs, dist, scripts, README), and the built
/// `mprisd`.
enum Repository {
    static var root: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    static func path(_ relative: String) -> String { root + "/" + relative }

    /// The built `mprisd`, or a clear failure when `swift build` was not run first.
    static func mprisd() throws -> String {
        let path = Products.path("mprisd")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("\(path) is missing: run `swift build` before `swift test`")
        }
        return path
    }

    /// The flags a command's `--help` lists in its options (`--device`, …, `--help`), in order.
    static func options(inHelp help: String) -> [String] {
        var options: [String] = []
        for line in help.split(separator: "\n") {
            var text = line.drop { $0 == " " }
            guard line.hasPrefix("  ") else { continue }
            if text.hasPrefix("-h, ") { text = text.dropFirst(4) }
            guard text.hasPrefix("--") else { continue }
            let flag = String(text.prefix { $0 == "-" || $0.isLetter })
            if !options.contains(flag) { options.append(flag) }
        }
        return options
    }

    /// The comma-separated values a help text lists after `flag PLACEHOLDER` (for `--category C`:
    /// ambient, soloAmbient, …), up to the next line that starts another flag.
    static func values(of flag: String, inHelp help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(flag + " ") }) else {
            return []
        }
        var text = String(lines[start].trimmingCharacters(in: .whitespaces).drop { $0 != " " })
        text = String(text.dropFirst().drop { $0 != " " })  // the placeholder
        for line in lines[(start + 1)...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("-") || trimmed.isEmpty || trimmed.hasPrefix("(") { break }
            text += " " + trimmed
        }
        return text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init).filter { $0 != "or" }
    }
}
