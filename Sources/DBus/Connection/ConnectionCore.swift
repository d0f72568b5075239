import CDBus
import Posix

/// The loop-confined heart of a `Connection`: the libdbus connection and the tables that route
/// its messages. Everything here runs on the connection's `EventLoop` thread, except `open`,
/// which finishes before that thread starts.
final class ConnectionCore: @unchecked Sendable {  // invariant: mutable state touched only on `loop`'s thread
    let loop: EventLoop
    let uniqueName: String
    let events = Broadcaster<ConnectionEvent>()
    /// `nil` once the connection has been torn down.
    private(set) var raw: OpaquePointer?
    /// The exported objects and the signal subscriptions: loop-bound, checked on every access.
    private let boundObjects: LoopBound<ObjectTable>
    private let boundSignals: LoopBound<SignalRouter>
    var objects: ObjectTable { boundObjects.value }
    var signals: SignalRouter { boundSignals.value }
    /// Calls still waiting for an answer; whatever libdbus leaves unanswered at teardown fails here.
    private var outstanding: [ObjectIdentifier: PendingReply] = [:]
    /// Header strings of the last message received, reused by the next (loop thread only).
    private var headerStrings = HeaderStrings()

    enum Target {
        case bus(DBusBusType)
        case address(String)
    }

    init(target: Target, threadName: String) throws(DBusError) {
        dbus_threads_init_default()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        var connection: OpaquePointer?
        switch target {
        case .bus(let type):
            connection = dbus_bus_get_private(type, &error)
        case .address(let address):
            connection = dbus_connection_open_private(address, &error)
            if let opened = connection, dbus_bus_register(opened, &error) == 0 {
                dbus_connection_close(opened)
                dbus_connection_unref(opened)
                connection = nil
            }
        }
        guard let connection else {
            throw ConnectionCore.swiftError(error, fallback: "cannot connect to the bus")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        raw = connection
        uniqueName = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
        do {
            loop = try EventLoop()
        } catch {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw error
        }
        let loop = self.loop
        boundObjects = LoopBound(ObjectTable()) { loop.isOnLoopThread }
        boundSignals = LoopBound(SignalRouter()) { loop.isOnLoopThread }
        installCallbacks(on: connection)
        loop.afterWork = { [unowned self] in self.dispatchAll() }
        // The loop keeps the core alive until it stops; `onStop` breaks the cycle.
        loop.onStop = { self.tearDown() }
        try loop.start(name: threadName)
    }

    static func swiftError(_ error: CDBus.DBusError, fallback: String) -> DBusError {
        let name = error.name.map { String(cString: $0) } ?? DBusError.Name.failed
        let message = error.message.map { String(cString: $0) } ?? fallback
        return DBusError(name, message)
    }

    // MARK: libdbus hooks

    private func installCallbacks(on connection: OpaquePointer) {
        let loopContext = Unmanaged.passUnretained(loop).toOpaque()
        dbus_connection_set_watch_functions(connection, { watch, data in
            guard let watch, let data else { return 0 }
            Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().addWatch(watch)
            return 1
        }, { watch, data in
            guard let watch, let data else { return }
            Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().removeWatch(watch)
        }, { _, _ in
            // The poll set is rebuilt from the watches' enabled flags on every iteration.
        }, loopContext, nil)
        dbus_connection_set_timeout_functions(connection, { timeout, data in
            guard let timeout, let data else { return 0 }
            Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().addTimeout(timeout)
            return 1
        }, { timeout, data in
            guard let timeout, let data else { return }
            Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().removeTimeout(timeout)
        }, { timeout, data in
            guard let timeout, let data else { return }
            Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().rearm(timeout)
        }, loopContext, nil)
        dbus_connection_set_wakeup_main_function(connection, { data in
            guard let data else { return }
            let loop = Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue()
            if !loop.isOnLoopThread { loop.wake() }
        }, loopContext, nil)
        dbus_connection_set_dispatch_status_function(connection, { _, status, data in
            guard let data, status == DBUS_DISPATCH_DATA_REMAINS else { return }
            let loop = Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue()
            if !loop.isOnLoopThread { loop.wake() }
        }, loopContext, nil)
        let coreContext = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_add_filter(connection, { _, message, data in
            guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            return Unmanaged<ConnectionCore>.fromOpaque(data).takeUnretainedValue().receive(message)
        }, coreContext, nil)
    }

    private func dispatchAll() {
        guard let raw else { return }
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    // MARK: Incoming

    private func receive(_ message: OpaquePointer) -> DBusHandlerResult {
        switch dbus_message_get_type(message) {
        case CDBUS_MESSAGE_TYPE_METHOD_CALL:
            // A `Properties.Get` is answered first, without decoding the message (ObjectTable+FastGet).
            let objects = self.objects
            if objects.answerPropertyGet(message, on: self) { return DBUS_HANDLER_RESULT_HANDLED }
            objects.dispatch(Message(libdbusMessage: message, reusing: &headerStrings), raw: message, on: self)
            return DBUS_HANDLER_RESULT_HANDLED
        case CDBUS_MESSAGE_TYPE_SIGNAL:
            let signal = Message(libdbusMessage: message, reusing: &headerStrings)
            if signal.interface == StandardInterfaceName.local, signal.member == "Disconnected" {
                events.publish(.disconnected)
                loop.stop()
                return DBUS_HANDLER_RESULT_HANDLED
            }
            if signal.sender == BusDaemon.name, signal.interface == BusDaemon.interface,
               case .string(let name)? = signal.body.first {
                if signal.member == "NameAcquired" { events.publish(.nameAcquired(name)) }
                if signal.member == "NameLost" { events.publish(.nameLost(name)) }
            }
            signals.route(signal)
            return DBUS_HANDLER_RESULT_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    // MARK: Outgoing (loop thread)

    /// Sends a message built elsewhere; consumes the caller's reference.
    func send(consuming message: OpaquePointer) {
        if let raw { dbus_connection_send(raw, message, nil) }
        dbus_message_unref(message)
    }

    /// Marshals and sends; a value that cannot be marshalled is reported to `onError`.
    func send(_ message: Message) throws(DBusError) {
        send(consuming: try message.makeLibdbusMessage())
    }

    /// Sends a call and completes `pending` with its reply, an error reply, or a local failure.
    func sendCall(consuming message: OpaquePointer, timeoutMilliseconds: Int32, pending: PendingReply) {
        defer { dbus_message_unref(message) }
        guard !pending.isFinished else { return }  // cancelled before it was sent
        var call: OpaquePointer?
        guard let raw, dbus_connection_send_with_reply(raw, message, &call, timeoutMilliseconds) != 0,
              let call else {
            pending.finish(.failure(.disconnected))
            return
        }
        let key = ObjectIdentifier(pending)
        outstanding[key] = pending
        pending.onFinish = { [unowned self] in self.outstanding[key] = nil }
        pending.attach(call)
    }

    /// Closes the connection; the `Disconnected` that follows stops the loop.
    func close() {
        if let raw { dbus_connection_close(raw) }
    }

    private func tearDown() {
        guard let connection = raw else { return }
        dbus_connection_close(connection)
        // Deliver what is left, pending-call failures included, before letting go.
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
        dbus_connection_unref(connection)
        raw = nil
        for pending in Array(outstanding.values) { pending.finish(.failure(.disconnected)) }
        events.finish()
        signals.finishAll()
        loop.afterWork = {}
        loop.onStop = {}
    }
}
