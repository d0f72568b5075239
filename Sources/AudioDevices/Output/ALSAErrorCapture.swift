import CALSA
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Collects what alsa-lib would print to stderr (`ALSA lib pcm.c:…: Unknown PCM foo`) while a call
/// runs, so the text ends up in the thrown error instead of as noise on the player's terminal.
///
/// `snd_lib_error_set_local` installs a handler for the calling thread only; the messages are filed
/// under that thread's id, so two threads opening devices at once do not mix them.
enum ALSAErrorCapture {
    private static let messages = Mutex<[pthread_t: [String]]>([:])

    /// Runs `body` with alsa-lib's messages captured; returns its result and the messages.
    static func capturing<T>(_ body: () -> T) -> (result: T, messages: [String]) {
        let thread = pthread_self()
        let previous = snd_lib_error_set_local { _, _, _, _, format, arguments in
            guard let format, let arguments else { return }
            var text = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&text, text.count, format, arguments)
            let message = String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) },
                                 as: UTF8.self)
            ALSAErrorCapture.messages.withLock { $0[pthread_self(), default: []].append(message) }
        }
        let result = body()
        snd_lib_error_set_local(previous)
        let captured = messages.withLock { $0.removeValue(forKey: thread) ?? [] }
        return (result, captured)
    }

    /// `snd_strerror(code)`, followed by what alsa-lib said while failing, when it said anything.
    static func reason(_ code: Int32, _ messages: [String]) -> String {
        let base = String(cString: snd_strerror(code))
        let details = messages.filter { !$0.isEmpty }
        return details.isEmpty ? base : "\(base) (\(details.joined(separator: "; ")))"
    }
}
