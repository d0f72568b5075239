import AudioDevices

/// The program's version, shown by `mprisd --version`, the daemon and its `Version` property.
///
/// The one place the version is written: `scripts/package.sh` reads `string` from this file for the
/// Debian package's version, so the package and the program can never disagree.
enum Version {
    static let string = "0.6.0"

    /// What `mprisd --version` prints: the version, then the C libraries doing the heavy lifting
    /// (the ones a bug report needs: the package takes them from the distribution).
    static var text: String {
        "mprisd \(string)\nalsa-lib \(LibraryVersions.alsa), \(LibraryVersions.sndfile)"
    }
}
