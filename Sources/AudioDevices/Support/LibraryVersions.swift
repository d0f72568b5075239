import CALSA
import CSndfile

/// The versions of the C libraries doing the heavy lifting, for `--version` and bug reports.
public enum LibraryVersions {
    /// alsa-lib's version (`snd_asoundlib_version`), e.g. `1.2.8`.
    public static var alsa: String {
        snd_asoundlib_version().map { String(cString: $0) } ?? "unknown"
    }

    /// libsndfile's version string (`sf_version_string`), e.g. `libsndfile-1.2.0`; loads
    /// libsndfile if nothing has (`--version` does: a bug report needs it), or says why it cannot.
    public static var sndfile: String {
        if let reason = Sndfile.unavailableReason { return "libsndfile unavailable (\(reason))" }
        return sf_version_string().map { String(cString: $0) } ?? "unknown"
    }
}
