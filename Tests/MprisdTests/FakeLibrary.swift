import Foundation
import TestSupport

/// A shared library with the name of a real one and none of its functions, built with the real
/// `cc` into a folder for `LD_LIBRARY_PATH`: `dlopen` finds it first, so the program's check
/// fails exactly as with a too-old library (`libpulse.so.0 has no pa_…`), on a machine that has
/// the real one installed.
enum FakeLibrary {
    /// Builds `directory/soname` (an empty library with that SONAME); returns `directory`.
    static func make(_ soname: String, in directory: String) async throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let result = try await runProgram("/usr/bin/cc", ["-shared", "-fPIC", "-Wl,-soname,\(soname)", "-o",
                                                          directory + "/" + soname, "-x", "c", "/dev/null"],
                                          timeout: .seconds(60))
        guard result.status == 0 else { throw TestSupportError("cc of a fake \(soname) failed: \(result.stderr)") }
        return directory
    }
}
