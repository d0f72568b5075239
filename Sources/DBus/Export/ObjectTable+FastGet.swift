import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// `org.freedesktop.DBus.Properties.Get` answered straight from libdbus's message, the call a
/// client polls most (`PlaybackStatus`, `Position`).
///
/// The general path (`dispatch`) decodes every call into a `Message` — header strings, an argument
/// array of `DBusValue`s, a `ReceivedMessage` and an `Answer` — and looks the object up by hashing
/// its path: some 7,800 instructions per call, an eighth of the whole cost of a `Get` on the
/// serving thread (issue 18, BENCHMARKS.md). Here the header and the two arguments are compared as the C strings libdbus
/// already validated (`strcmp`, no `String`, no allocation) against the last `Get` resolved, whose
/// `Property` is kept; the reply is written with `dbus_message_iter_*` around the getter's value.
///
/// Anything else — another call, a first or different property, a one-way call, malformed
/// arguments, an unknown object or property — returns false and takes the general path, which
/// answers it (errors included) exactly as before. A getter's failure is answered here with the
/// same error the general path sends.
extension ObjectTable {
    /// Answers `call` (borrowed) when it is a `Get` of the property resolved last, or of one that
    /// resolves now; returns whether it did.
    func answerPropertyGet(_ call: OpaquePointer, on core: ConnectionCore) -> Bool {
        guard dbus_message_get_no_reply(call) == 0,
              let member = dbus_message_get_member(call), strcmp(member, Self.get) == 0,
              let interface = dbus_message_get_interface(call), strcmp(interface, Self.properties) == 0,
              let signature = dbus_message_get_signature(call), strcmp(signature, Self.twoStrings) == 0,
              let path = dbus_message_get_path(call) else { return false }
        var iter = DBusMessageIter()
        var interfaceName: UnsafePointer<CChar>?
        var name: UnsafePointer<CChar>?
        guard dbus_message_iter_init(call, &iter) != 0 else { return false }
        dbus_message_iter_get_basic(&iter, &interfaceName)
        guard dbus_message_iter_next(&iter) != 0 else { return false }
        dbus_message_iter_get_basic(&iter, &name)
        guard let interfaceName, let name,
              let property = lastGet.pointee.property(path, interfaceName, name) ?? resolveGet(path, interfaceName, name)
        else { return false }

        let value: DBusValue
        do {
            value = try read(property)
        } catch {
            core.sendError(error, answering: call)
            return true
        }
        guard let reply = dbus_message_new_method_return(call) else {
            core.sendError(DBusError(DBusError.Name.noMemory, "dbus_message_new_method_return failed"), answering: call)
            return true
        }
        var body = DBusMessageIter()
        dbus_message_iter_init_append(reply, &body)
        do {
            try Marshal.appendVariant(value, to: &body)
        } catch {
            dbus_message_unref(reply)
            core.sendError(.failed("the reply could not be marshalled: \(error.message)"), answering: call)
            return true
        }
        core.send(consuming: reply)
        return true
    }

    /// Resolves a `Get` the cache does not hold, as `dispatch` and `answerProperties` would, and
    /// keeps it; nil (the general path answers, with its error) when the object or property is
    /// not there.
    private func resolveGet(_ path: UnsafePointer<CChar>, _ interfaceName: UnsafePointer<CChar>,
                            _ name: UnsafePointer<CChar>) -> Property? {
        let objectPath = ObjectPath(validated: String(cString: path))
        guard let object = objects[objectPath],
              let (_, property) = try? lookup(object, String(cString: interfaceName), String(cString: name))
        else { return nil }
        lastGet.pointee = LastPropertyGet(path, interfaceName, name, property)
        return property
    }

    // Computed, not stored: a static string's pointer costs nothing, a stored static a lazy-init check.
    private static var get: UnsafePointer<CChar> { ("Get" as StaticString).cString }
    private static var properties: UnsafePointer<CChar> { ("org.freedesktop.DBus.Properties" as StaticString).cString }
    private static var twoStrings: UnsafePointer<CChar> { ("ss" as StaticString).cString }
}

/// The last `Properties.Get` resolved: its object path, interface and property name as C strings
/// (compared with `strcmp` to the next call's), and the property they named.
struct LastPropertyGet {
    private var path: CStringCopy?
    private var interfaceName: CStringCopy?
    private var name: CStringCopy?
    private var resolved: Property?

    init() {}

    init(_ path: UnsafePointer<CChar>, _ interfaceName: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>,
         _ property: Property) {
        self.path = CStringCopy(path)
        self.interfaceName = CStringCopy(interfaceName)
        self.name = CStringCopy(name)
        // Kept only when all three copies exist: a failed `strdup` leaves nothing cached.
        if self.path != nil && self.interfaceName != nil && self.name != nil { resolved = property }
    }

    /// The property, when the three strings are those resolved last. `mutating` though it changes
    /// nothing: called on `lastGet.pointee`, it then reads the cache in place instead of copying it
    /// out first (four retains and releases per call).
    mutating func property(_ path: UnsafePointer<CChar>, _ interfaceName: UnsafePointer<CChar>,
                  _ name: UnsafePointer<CChar>) -> Property? {
        guard let resolved, let kept = self.name?.pointer, strcmp(kept, name) == 0,
              let keptInterface = self.interfaceName?.pointer, strcmp(keptInterface, interfaceName) == 0,
              let keptPath = self.path?.pointer, strcmp(keptPath, path) == 0 else { return nil }
        return resolved
    }
}

/// A C string copied with `strdup` and freed with the last reference.
final class CStringCopy {
    let pointer: UnsafeMutablePointer<CChar>

    init?(_ text: UnsafePointer<CChar>) {
        guard let copy = strdup(text) else { return nil }
        pointer = copy
    }

    deinit {
        free(pointer)
    }
}
