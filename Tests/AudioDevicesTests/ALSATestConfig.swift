import CALSA
import Foundation

/// An alsa-lib configuration of our own, so output tests capture exactly what was played.
///
/// `capture:FILE=path` is a `file` PCM over an inline `null` slave: every byte written lands in
/// `path`, raw. The configuration defines nothing else (no `default`), which is also how the
/// fallback to the silent output is tested, without depending on the machine's sound cards.
///
/// alsa-lib reads `ALSA_CONFIG_PATH` and caches the parsed tree globally at the first PCM open, and
/// all test targets share one process: `activate()` sets the variable and drops that cache
/// (`snd_config_update_free_global`) so the next open parses our file; `deactivate()` restores the
/// previous value and drops the cache again, so other tests see the configuration they expect.
enum ALSATestConfig {
    static let text = """
        pcm.capture {
            @args [ FILE ]
            @args.FILE { type string }
            type file
            slave { pcm { type null } }
            file $FILE
            format "raw"
        }
        """

    // Touched only from setUp/tearDown, which XCTest runs one at a time on its one test thread.
    private nonisolated(unsafe) static var previous: String?

    /// Call in `setUp`, before any alsa-lib call of the test; `extra` adds PCMs of the test's own.
    static func activate(in directory: TemporaryDirectory, extra: String = "") throws {
        let path = directory.file("asound.conf")
        try (text + "\n" + extra).write(toFile: path, atomically: true, encoding: .utf8)
        previous = ProcessInfo.processInfo.environment["ALSA_CONFIG_PATH"]
        setenv("ALSA_CONFIG_PATH", path, 1)
        snd_config_update_free_global()
    }

    /// Call in `tearDown`.
    static func deactivate() {
        if let previous { setenv("ALSA_CONFIG_PATH", previous, 1) } else { unsetenv("ALSA_CONFIG_PATH") }
        previous = nil
        snd_config_update_free_global()
    }

    /// The device name that captures into `path`.
    static func device(capturingInto path: String) -> String {
        "capture:FILE=\"\(path)\""
    }
}
