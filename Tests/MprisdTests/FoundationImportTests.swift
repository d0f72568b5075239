import Foundation
import XCTest

/// The programs import `FoundationEssentials`, never all of `Foundation`: `Foundation` brings its
/// internationalization part and ICU's data, 30 MB of the statically linked binary the Debian
/// package ships (60 MB against 20 MB stripped; 17.5 MB against 6.6 MB packaged: BENCHMARKS.md,
/// "Issue 17"), and with the dynamic standard library three more shared libraries to load.
final class FoundationImportTests: XCTestCase {
    func testNoSourceOfTheProgramsImportsAllOfFoundation() throws {
        let sources = Repository.path("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 100, "the sources were found")
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.first == "import" || (words.first == "@_exported" && words.dropFirst().first == "import") else { continue }
                let module = words.last.map { String($0.split(separator: ".").first ?? $0) }
                if module == "Foundation" || module == "FoundationInternationalization" { offenders.append(file) }
            }
        }
        XCTAssertEqual(offenders, [], "import FoundationEssentials instead (and Posix's trimmingWhitespace/padded)")
    }
}
