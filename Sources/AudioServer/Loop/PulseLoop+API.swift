import CPulse
#if canImport(Glibc)
import Glibc
#endif

/// The `pa_mainloop_api` vtable, in Swift: each function finds its `LoopCore` through the api
/// struct's `userdata` (or the event object behind the opaque event pointer) and maps the call onto
/// the loop's own io, time and defer events. The event pointers handed to libpulse are those
/// objects, unretained: the core's lists keep them alive until freed and collected.
extension LoopCore {
    static func core(_ api: UnsafeMutablePointer<pa_mainloop_api>?) -> LoopCore? {
        guard let userdata = api?.pointee.userdata else { return nil }
        return Unmanaged<LoopCore>.fromOpaque(userdata).takeUnretainedValue()
    }

    static func object<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type) -> T? {
        guard let pointer else { return nil }
        return Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    static func pointer(_ object: AnyObject) -> OpaquePointer {
        OpaquePointer(Unmanaged.passUnretained(object).toOpaque())
    }

    func installVTable() {
        api.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
        installIOFunctions()
        installTimeFunctions()
        installDeferFunctions()
        // `pa_mainloop_api_once` and `quit` are for libpulse's own loops; nothing of ours uses them.
        api.pointee.quit = { _, _ in }
    }

    private func installIOFunctions() {
        api.pointee.io_new = { api, fd, flags, callback, userdata in
            guard let core = LoopCore.core(api) else { return nil }
            var opaque: OpaquePointer?
            let event = core.watch(fd: fd, events: flags.rawValue) { ready in
                callback?(api, opaque, fd, pa_io_event_flags_t(rawValue: ready), userdata)
            }
            event.cUserdata = userdata
            opaque = LoopCore.pointer(event)
            return opaque
        }
        api.pointee.io_enable = { pointer, flags in
            LoopCore.object(pointer, as: IOEvent.self)?.events = flags.rawValue
        }
        api.pointee.io_free = { pointer in
            guard let event = LoopCore.object(pointer, as: IOEvent.self) else { return }
            event.core?.free(event)
        }
        api.pointee.io_set_destroy = { pointer, callback in
            guard let event = LoopCore.object(pointer, as: IOEvent.self) else { return }
            let api = event.core?.api
            let userdata = event.cUserdata
            event.destroy = callback.map { callback in { callback(api, pointer, userdata) } }
        }
    }

    private func installTimeFunctions() {
        api.pointee.time_new = { api, tv, callback, userdata in
            guard let core = LoopCore.core(api) else { return nil }
            var opaque: OpaquePointer?
            let event = core.timer(at: tv.map { LoopCore.monotonicDeadline($0.pointee) }) { event in
                var requested = event.requested
                callback?(api, opaque, &requested, userdata)
            }
            if let tv { event.requested = tv.pointee }
            event.cUserdata = userdata
            event.core = core
            opaque = LoopCore.pointer(event)
            return opaque
        }
        api.pointee.time_restart = { pointer, tv in
            guard let event = LoopCore.object(pointer, as: TimeEvent.self), !event.dead else { return }
            event.deadline = tv.map { LoopCore.monotonicDeadline($0.pointee) }
            if let tv { event.requested = tv.pointee }
        }
        api.pointee.time_free = { pointer in
            guard let event = LoopCore.object(pointer, as: TimeEvent.self) else { return }
            event.core?.free(event)
        }
        api.pointee.time_set_destroy = { pointer, callback in
            guard let event = LoopCore.object(pointer, as: TimeEvent.self) else { return }
            let api = event.core?.api
            let userdata = event.cUserdata
            event.destroy = callback.map { callback in { callback(api, pointer, userdata) } }
        }
    }

    private func installDeferFunctions() {
        api.pointee.defer_new = { api, callback, userdata in
            guard let core = LoopCore.core(api) else { return nil }
            var opaque: OpaquePointer?
            let event = DeferEvent(enabled: true) {
                callback?(api, opaque, userdata)
            }
            event.cUserdata = userdata
            event.core = core
            core.defers.append(event)
            opaque = LoopCore.pointer(event)
            return opaque
        }
        api.pointee.defer_enable = { pointer, enabled in
            guard let event = LoopCore.object(pointer, as: DeferEvent.self), !event.dead else { return }
            event.enabled = enabled != 0
        }
        api.pointee.defer_free = { pointer in
            guard let event = LoopCore.object(pointer, as: DeferEvent.self) else { return }
            event.core?.free(event)
        }
        api.pointee.defer_set_destroy = { pointer, callback in
            guard let event = LoopCore.object(pointer, as: DeferEvent.self) else { return }
            let api = event.core?.api
            let userdata = event.cUserdata
            event.destroy = callback.map { callback in { callback(api, pointer, userdata) } }
        }
    }
}
