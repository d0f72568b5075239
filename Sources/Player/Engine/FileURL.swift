#if canImport(Glibc)
import Glibc
#endif

/// `file://` URIs for `xesam:url`: absolute, with the characters RFC 3986 reserves escaped.
enum FileURL {
    static func string(forPath path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/"), let resolved = realpath(path, nil) {
            absolute = String(cString: resolved)
            free(resolved)
        }
        var out = "file://"
        for byte in absolute.utf8 {
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
