import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// The calls that let the audio thread sleep on the device next to its own wake-up descriptor.
extension ALSAPCM {
    /// `snd_pcm_poll_descriptors_count` + `snd_pcm_poll_descriptors`: what to `poll()` for the
    /// device (a timer fd, the kernel PCM's fd, a plugin's pipe or eventfd).
    static func pollDescriptors(_ pcm: OpaquePointer) -> [pollfd] {
        let count = snd_pcm_poll_descriptors_count(pcm)
        guard count > 0 else { return [] }
        var descriptors = [pollfd](repeating: pollfd(fd: -1, events: 0, revents: 0), count: Int(count))
        let filled = snd_pcm_poll_descriptors(pcm, &descriptors, UInt32(count))
        return filled > 0 ? Array(descriptors.prefix(Int(filled))) : []
    }

    /// `snd_pcm_poll_descriptors_revents`: what the device means by the `revents` `poll()` left
    /// in `descriptors` (`POLLOUT`: room for `avail_min` frames; `POLLERR`: an xrun or a lost
    /// device). A negative value is an error code.
    static func revents(_ pcm: OpaquePointer, _ descriptors: inout [pollfd]) -> Int32 {
        var events: UInt16 = 0
        let code = descriptors.withUnsafeMutableBufferPointer { buffer in
            snd_pcm_poll_descriptors_revents(pcm, buffer.baseAddress, UInt32(buffer.count), &events)
        }
        return code < 0 ? code : Int32(events)
    }

    /// `snd_pcm_avail`: frames the device can take now (synchronised with the hardware pointer),
    /// or a negative error code (`-EPIPE` after an underrun).
    static func avail(_ pcm: OpaquePointer) -> Int {
        snd_pcm_avail(pcm)
    }

    /// `snd_pcm_start`: starts a prepared stream before its start threshold was reached.
    static func start(_ pcm: OpaquePointer) -> Int32 {
        snd_pcm_start(pcm)
    }
}
