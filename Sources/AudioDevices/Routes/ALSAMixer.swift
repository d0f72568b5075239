import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// The alsa-lib simple-mixer (`snd_mixer_*`) calls `MixerVolume` makes, each wrapped once. Only
/// getters: nothing here can change a volume. Negative return values are `-errno` codes.
enum ALSAMixer {
    /// `snd_mixer_open` + `snd_mixer_attach` (which makes the control device non-blocking) +
    /// `snd_mixer_selem_register` (the default simple-element abstraction) + `snd_mixer_load`.
    /// On failure, `operation` names the step; it is `attachOperation` when the control device
    /// itself could not be opened.
    static func open(_ control: String) -> (mixer: OpaquePointer?, code: Int32, operation: String, messages: [String]) {
        let (outcome, messages) = ALSAErrorCapture.capturing { () -> (OpaquePointer?, Int32, String) in
            var mixer: OpaquePointer?
            var code = snd_mixer_open(&mixer, 0)
            guard code >= 0, let mixer else { return (nil, code < 0 ? code : -ENOMEM, "opening a mixer") }
            code = snd_mixer_attach(mixer, control)
            if code < 0 {
                snd_mixer_close(mixer)
                return (nil, code, attachOperation)
            }
            code = snd_mixer_selem_register(mixer, nil, nil)
            if code >= 0 { code = snd_mixer_load(mixer) }
            guard code >= 0 else {
                snd_mixer_close(mixer)
                return (nil, code, "loading its mixer elements")
            }
            return (mixer, 0, "")
        }
        return (outcome.0, outcome.1, outcome.2, messages)
    }

    /// The failing step of `open` when the control device cannot be opened.
    static let attachOperation = "opening the control device"

    /// `snd_mixer_close`.
    static func close(_ mixer: OpaquePointer) {
        snd_mixer_close(mixer)
    }

    /// `snd_mixer_find_selem` for `name`, index 0, when it has a playback volume.
    static func playbackElement(_ mixer: OpaquePointer, named name: String) -> OpaquePointer? {
        var id: OpaquePointer?
        guard snd_mixer_selem_id_malloc(&id) >= 0, let id else { return nil }
        defer { snd_mixer_selem_id_free(id) }
        snd_mixer_selem_id_set_name(id, name)
        snd_mixer_selem_id_set_index(id, 0)
        guard let element = snd_mixer_find_selem(mixer, id),
              snd_mixer_selem_has_playback_volume(element) != 0 else { return nil }
        return element
    }

    /// `snd_mixer_selem_get_playback_volume_range` + `snd_mixer_selem_get_playback_volume` and
    /// `snd_mixer_selem_get_playback_switch` of every playback channel: the volume as 0…1 (the
    /// channels' average over the range) and whether every channel's switch is off.
    static func read(_ element: OpaquePointer) -> (level: Double, muted: Bool) {
        var minimum = 0
        var maximum = 0
        snd_mixer_selem_get_playback_volume_range(element, &minimum, &maximum)
        let hasSwitch = snd_mixer_selem_has_playback_switch(element) != 0
        var total = 0.0
        var channels = 0
        var anyOn = false
        for raw in 0...SND_MIXER_SCHN_LAST.rawValue {
            let channel = snd_mixer_selem_channel_id_t(rawValue: raw)
            guard snd_mixer_selem_has_playback_channel(element, channel) != 0 else { continue }
            var value = 0
            if snd_mixer_selem_get_playback_volume(element, channel, &value) >= 0 {
                total += maximum > minimum ? Double(value - minimum) / Double(maximum - minimum) : 1
                channels += 1
            }
            var on: Int32 = 1
            if hasSwitch, snd_mixer_selem_get_playback_switch(element, channel, &on) >= 0, on != 0 { anyOn = true }
        }
        let level = channels > 0 ? min(max(total / Double(channels), 0), 1) : 0
        return (level, hasSwitch && !anyOn)
    }

    /// `snd_mixer_poll_descriptors_count` + `snd_mixer_poll_descriptors`.
    static func pollDescriptors(_ mixer: OpaquePointer) -> (descriptors: [pollfd], code: Int32) {
        let count = snd_mixer_poll_descriptors_count(mixer)
        guard count > 0 else { return ([], count < 0 ? count : -EINVAL) }
        var descriptors = [pollfd](repeating: pollfd(), count: Int(count))
        let filled = snd_mixer_poll_descriptors(mixer, &descriptors, UInt32(count))
        guard filled >= 0 else { return ([], filled) }
        return (Array(descriptors.prefix(Int(filled))), 0)
    }

    /// `snd_mixer_poll_descriptors_revents`.
    static func revents(_ mixer: OpaquePointer, _ descriptors: inout [pollfd]) -> UInt16 {
        var revents: UInt16 = 0
        guard snd_mixer_poll_descriptors_revents(mixer, &descriptors, UInt32(descriptors.count), &revents) >= 0 else {
            return UInt16(POLLERR)
        }
        return revents
    }

    /// `snd_mixer_handle_events`: reads the pending control events into the mixer's elements.
    static func handleEvents(_ mixer: OpaquePointer) -> Int32 {
        snd_mixer_handle_events(mixer)
    }
}
