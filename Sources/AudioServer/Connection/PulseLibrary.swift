import CLazyLibraries

/// libpulse, loaded on first use rather than at exec (issue 16: `mprisd control` and `--version`
/// must not pay for libpulse's 20 libraries). The link asks here before its first `pa_*` call, so
/// a machine without libpulse0 gets a link that says why instead of a crash.
public enum PulseLibrary {
    /// `mprisd_pulse_load`: `nil` once libpulse.so.0 and every `pa_*` function the link calls are
    /// resolved, else the reason (the same answer for the whole process: loaded once).
    public static var unavailableReason: String? {
        var error: UnsafePointer<CChar>?
        if mprisd_pulse_load(&error) { return nil }
        return error.map { String(cString: $0) } ?? "cannot load libpulse.so.0"
    }
}
