import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// The alsa-lib control (`snd_ctl_*`) calls `JackMonitor` makes, each wrapped once. Negative return
/// values are `-errno` codes, as alsa-lib returns them.
enum ALSAControl {
    /// One element of a control device, as `snd_ctl_elem_list` names it.
    struct Element {
        var numid: UInt32
        var interface: snd_ctl_elem_iface_t
        var name: String
        var index: UInt32
    }

    /// `snd_ctl_open`, non-blocking (`SND_CTL_NONBLOCK`), so `read` returns `-EAGAIN` instead of
    /// waiting once the pending events are consumed.
    static func open(_ name: String) -> (ctl: OpaquePointer?, code: Int32, messages: [String]) {
        let (outcome, messages) = ALSAErrorCapture.capturing { () -> (OpaquePointer?, Int32) in
            var ctl: OpaquePointer?
            let code = snd_ctl_open(&ctl, name, Int32(SND_CTL_NONBLOCK))
            guard code >= 0, let ctl else { return (nil, code < 0 ? code : -ENODEV) }
            return (ctl, 0)
        }
        return (outcome.0, outcome.1, messages)
    }

    /// `snd_ctl_close`.
    static func close(_ ctl: OpaquePointer) {
        snd_ctl_close(ctl)
    }

    /// `snd_ctl_elem_list` (twice: once for the count, once with room for every id).
    static func elements(_ ctl: OpaquePointer) -> (elements: [Element], code: Int32) {
        var list: OpaquePointer?
        guard snd_ctl_elem_list_malloc(&list) >= 0, let list else { return ([], -ENOMEM) }
        defer { snd_ctl_elem_list_free(list) }
        var code = snd_ctl_elem_list(ctl, list)
        guard code >= 0 else { return ([], code) }
        let count = snd_ctl_elem_list_get_count(list)
        guard count > 0 else { return ([], 0) }
        code = snd_ctl_elem_list_alloc_space(list, count)
        guard code >= 0 else { return ([], code) }
        defer { snd_ctl_elem_list_free_space(list) }
        code = snd_ctl_elem_list(ctl, list)
        guard code >= 0 else { return ([], code) }
        var elements: [Element] = []
        for offset in 0..<snd_ctl_elem_list_get_used(list) {
            guard let name = snd_ctl_elem_list_get_name(list, offset) else { continue }
            elements.append(Element(numid: snd_ctl_elem_list_get_numid(list, offset),
                                    interface: snd_ctl_elem_list_get_interface(list, offset),
                                    name: String(cString: name),
                                    index: snd_ctl_elem_list_get_index(list, offset)))
        }
        return (elements, 0)
    }

    /// `snd_ctl_elem_info`: the element's value type, or `nil` when it cannot be asked.
    static func type(_ ctl: OpaquePointer, numid: UInt32) -> snd_ctl_elem_type_t? {
        var info: OpaquePointer?
        guard snd_ctl_elem_info_malloc(&info) >= 0, let info else { return nil }
        defer { snd_ctl_elem_info_free(info) }
        snd_ctl_elem_info_set_numid(info, numid)
        guard snd_ctl_elem_info(ctl, info) >= 0 else { return nil }
        return snd_ctl_elem_info_get_type(info)
    }

    /// `snd_ctl_elem_read` of a boolean element's first value, or `nil` when it cannot be read.
    static func readBoolean(_ ctl: OpaquePointer, numid: UInt32) -> Bool? {
        var value: OpaquePointer?
        guard snd_ctl_elem_value_malloc(&value) >= 0, let value else { return nil }
        defer { snd_ctl_elem_value_free(value) }
        snd_ctl_elem_value_set_numid(value, numid)
        guard snd_ctl_elem_read(ctl, value) >= 0 else { return nil }
        return snd_ctl_elem_value_get_boolean(value, 0) != 0
    }

    /// `snd_ctl_subscribe_events` (on).
    static func subscribe(_ ctl: OpaquePointer) -> Int32 {
        snd_ctl_subscribe_events(ctl, 1)
    }

    /// `snd_ctl_poll_descriptors_count` + `snd_ctl_poll_descriptors`.
    static func pollDescriptors(_ ctl: OpaquePointer) -> (descriptors: [pollfd], code: Int32) {
        let count = snd_ctl_poll_descriptors_count(ctl)
        guard count > 0 else { return ([], count < 0 ? count : -EINVAL) }
        var descriptors = [pollfd](repeating: pollfd(), count: Int(count))
        let filled = snd_ctl_poll_descriptors(ctl, &descriptors, UInt32(count))
        guard filled >= 0 else { return ([], filled) }
        return (Array(descriptors.prefix(Int(filled))), 0)
    }

    /// `snd_ctl_poll_descriptors_revents`: the events alsa-lib sees in what `poll` returned.
    static func revents(_ ctl: OpaquePointer, _ descriptors: inout [pollfd]) -> UInt16 {
        var revents: UInt16 = 0
        let count = UInt32(descriptors.count)
        guard snd_ctl_poll_descriptors_revents(ctl, &descriptors, count, &revents) >= 0 else {
            return UInt16(POLLERR)
        }
        return revents
    }

    /// One element event, as `snd_ctl_read` delivers it.
    struct Event {
        var numid: UInt32
        var interface: snd_ctl_elem_iface_t
        var name: String
        var index: UInt32
        var mask: UInt32
    }

    /// `snd_ctl_read` until it has no more (`-EAGAIN`, 0) or fails: every pending element event.
    static func readEvents(_ ctl: OpaquePointer) -> [Event] {
        var event: OpaquePointer?
        guard snd_ctl_event_malloc(&event) >= 0, let event else { return [] }
        defer { snd_ctl_event_free(event) }
        var events: [Event] = []
        while snd_ctl_read(ctl, event) > 0 {
            guard snd_ctl_event_get_type(event) == SND_CTL_EVENT_ELEM else { continue }
            let name = snd_ctl_event_elem_get_name(event).map { String(cString: $0) } ?? ""
            events.append(Event(numid: snd_ctl_event_elem_get_numid(event),
                                interface: snd_ctl_event_elem_get_interface(event),
                                name: name,
                                index: snd_ctl_event_elem_get_index(event),
                                mask: snd_ctl_event_elem_get_mask(event)))
        }
        return events
    }
}

extension ALSAControl {
    /// `snd_strerror`.
    static func describe(_ code: Int32) -> String {
        String(cString: snd_strerror(code))
    }
}
