#if canImport(Glibc)
import Glibc
#endif
import AudioDevices

/// `file://` URIs for `xesam:url`: absolute, every byte outside RFC 3986's unreserved set
/// percent-encoded — a name that is not valid UTF-8 keeps its exact bytes (`%FF`).
enum FileURL {
    static func string(forPath path: MediaPath) -> String {
        var absolute = path.bytes
        if path.bytes.first != UInt8(ascii: "/"), let resolved = path.withCString({ realpath($0, nil) }) {
            absolute = Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
            free(resolved)
        }
        var out = "file://"
        for byte in absolute {
            let unreserved = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || (byte >= 0x30 && byte <= 0x39) || "/-._~".utf8.contains(byte)
            if unreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }
}
