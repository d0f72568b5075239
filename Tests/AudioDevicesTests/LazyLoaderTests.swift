import CLazyLibraries
import XCTest

/// The loader under libpulse and libsndfile (`mprisd_lazy_open`): a missing library or function
/// is a one-line reason naming it and its package, and no half-filled table is left behind.
final class LazyLoaderTests: XCTestCase {
    private func open(_ soname: String, _ names: [String]) -> (reason: String?, slots: [UnsafeMutableRawPointer?]) {
        var slots = [UnsafeMutableRawPointer?](repeating: nil, count: names.count)
        var buffer = [CChar](repeating: 0, count: 512)
        let cNames = names.map { strdup($0).map { UnsafePointer($0) } }
        defer { for name in cNames { free(UnsafeMutableRawPointer(mutating: name)) } }
        let reason = cNames.withUnsafeBufferPointer { names in
            mprisd_lazy_open(soname, "the-package", names.baseAddress, &slots, names.count, &buffer, buffer.count)
        }
        return (reason.map { String(cString: $0) }, slots)
    }

    func testAMissingLibraryNamesItsPackageAndTheLoadersReason() {
        let result = open("libmprisd-absent.so.7", ["sf_open"])
        XCTAssertEqual(result.reason?.hasPrefix("cannot load libmprisd-absent.so.7 (package the-package): "), true,
                       result.reason ?? "loaded")
        XCTAssertEqual(result.reason?.contains("No such file"), true, result.reason ?? "loaded")
        XCTAssertEqual(result.slots, [nil])
    }

    func testAMissingFunctionNamesItAndLeavesNoPointer() {
        let result = open("libsndfile.so.1", ["sf_open", "sf_mprisd_absent"])
        XCTAssertEqual(result.reason?.hasPrefix("libsndfile.so.1 has no sf_mprisd_absent (package the-package too old?): "), true,
                       result.reason ?? "loaded")
        XCTAssertEqual(result.slots, [nil, nil], "sf_open was found, then cleared with the rest")
    }

    func testEveryFunctionFoundFillsTheTable() {
        let result = open("libsndfile.so.1", ["sf_open", "sf_close"])
        XCTAssertNil(result.reason)
        XCTAssertTrue(result.slots.allSatisfy { $0 != nil })
    }

    /// The real table: every `sf_*` function the decoder calls exists in the installed library.
    func testTheInstalledLibsndfileHasEveryFunctionTheDecoderCalls() {
        var error: UnsafePointer<CChar>?
        XCTAssertTrue(mprisd_sndfile_load(&error), error.map { String(cString: $0) } ?? "")
    }
}
