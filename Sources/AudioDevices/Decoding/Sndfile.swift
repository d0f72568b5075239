import CLazyLibraries
import CSndfile

/// The libsndfile calls the decoder makes, each wrapped once so the rest of the code sees Swift
/// types. libsndfile's enums are anonymous in C and arrive as `Int`; the casts live here.
///
/// libsndfile is loaded on first use, not at exec (issue 16: `mprisd control` never decodes):
/// callers ask `unavailableReason` before anything else here.
enum Sndfile {
    /// `mprisd_sndfile_load`: `nil` once libsndfile.so.1 and every `sf_*` function below are
    /// resolved, else the reason (one answer per process: loaded once).
    static var unavailableReason: String? {
        var error: UnsafePointer<CChar>?
        if mprisd_sndfile_load(&error) { return nil }
        return error.map { String(cString: $0) } ?? "cannot load libsndfile.so.1"
    }

    /// `sf_open` for reading; on failure, `nil` and libsndfile's reason (`sf_strerror(NULL)`).
    static func openForReading(_ path: MediaPath) -> (handle: OpaquePointer?, info: SF_INFO, error: String) {
        var info = SF_INFO()
        let handle = path.withCString { sf_open($0, Int32(SFM_READ), &info) }
        let error = handle == nil ? lastError(nil) : ""
        return (handle, info, error)
    }

    /// `sf_close`.
    static func close(_ handle: OpaquePointer) {
        sf_close(handle)
    }

    /// `sf_strerror`: the text of the last error on `handle`, or of the last failed `sf_open` when `nil`.
    static func lastError(_ handle: OpaquePointer?) -> String {
        sf_strerror(handle).map { String(cString: $0) } ?? "unknown libsndfile error"
    }

    /// `sf_error`: the last error code on `handle` (0 when none).
    static func errorCode(_ handle: OpaquePointer) -> Int32 {
        sf_error(handle)
    }

    /// `sf_readf_float`: up to `frames` interleaved frames into `buffer`; returns the frames read.
    static func readFrames(_ handle: OpaquePointer, into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        Int(sf_readf_float(handle, buffer, sf_count_t(frames)))
    }

    /// `sf_seek(…, SEEK_SET)`: the new frame offset, or -1.
    static func seek(_ handle: OpaquePointer, toFrame frame: Int) -> Int {
        Int(sf_seek(handle, sf_count_t(frame), Int32(SEEK_SET)))
    }

    /// `sf_get_string`: one tag, `nil` when absent or blank.
    static func string(_ handle: OpaquePointer, _ type: Int) -> String? {
        guard let raw = sf_get_string(handle, Int32(type)) else { return nil }
        let text = String(cString: raw)
        return text.allSatisfy({ $0 == " " }) ? nil : text
    }

    /// `sf_command(NULL, SFC_GET_FORMAT_INFO, …)`: libsndfile's name for a major format or subtype.
    static func formatName(_ format: Int32) -> String? {
        var query = SF_FORMAT_INFO(format: format, name: nil, extension: nil)
        let status = sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &query,
                                Int32(MemoryLayout<SF_FORMAT_INFO>.size))
        guard status == 0 else { return nil }
        return query.name.map { String(cString: $0) }
    }

    /// `sf_command(NULL, SFC_GET_FORMAT_MAJOR_COUNT / SFC_GET_FORMAT_SUBTYPE_COUNT, …)`.
    static func formatCount(subtypes: Bool) -> Int {
        var count: Int32 = 0
        let command = subtypes ? SFC_GET_FORMAT_SUBTYPE_COUNT : SFC_GET_FORMAT_MAJOR_COUNT
        sf_command(nil, Int32(command), &count, Int32(MemoryLayout<Int32>.size))
        return Int(count)
    }

    /// `sf_command(NULL, SFC_GET_FORMAT_MAJOR / SFC_GET_FORMAT_SUBTYPE, …)`: entry `index` of the list.
    static func formatEntry(_ index: Int, subtypes: Bool) -> (format: Int32, name: String, fileExtension: String)? {
        var query = SF_FORMAT_INFO(format: Int32(index), name: nil, extension: nil)
        let command = subtypes ? SFC_GET_FORMAT_SUBTYPE : SFC_GET_FORMAT_MAJOR
        guard sf_command(nil, Int32(command), &query, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
              let name = query.name else { return nil }
        return (query.format, String(cString: name), query.extension.map { String(cString: $0) } ?? "")
    }

    static let majorMask = Int32(SF_FORMAT_TYPEMASK)
    static let subtypeMask = Int32(SF_FORMAT_SUBMASK)
}
