import Glibc

/// Prints `line` with one `write(2)`: whoever reads the output through a pipe sees each line as
/// it happens (`print` would buffer it).
func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
}
