import CALSA
import CSndfile

/// The versions of the C libraries doing the heavy lifting, for `--version` and bug reports.
public enum LibraryVersions {
    /// alsa-lib's version (`snd_asoundlib_version`), e.g. `1.2.8`.
    public static var alsa: String {
        snd_asoundlib_version().map { String(cString: $0) } ?? "unknown"
    }

    /// libsndfile's version string (`sf_version_string`), e.g. `libsndfile-1.2.0`.
    public static var sndfile: String {
        sf_version_string().map { String(cString: $0) } ?? "unknown"
    }
}
