import CDBus
import Synchronization

/// The objects a connection exports, and the routing of incoming method calls to them.
///
/// Loop-confined. Every call gets exactly one answer (unless the caller asked for none): the
/// handler's reply, the error it threw, or the standard error that names what was wrong.
final class ObjectTable {
    struct Object {
        var interfaces: [Interface]
        /// Last value announced (or seeded at export) per interface and property, for de-duplication.
        var announced: [String: [String: DBusValue]] = [:]

        func interface(named name: String) -> Interface? { interfaces.first { $0.name == name } }
    }

    var objects: [ObjectPath: Object] = [:]
    /// The last `Properties.Get` resolved (`ObjectTable+FastGet`), forgotten whenever an object
    /// comes or goes. Behind a pointer rather than a stored `var`: the fast path reads it on every
    /// `Get`, and a class's stored `var` costs a dynamic exclusivity check (`swift_beginAccess`,
    /// ~100 instructions) per access; the table is loop-confined, so no access can overlap.
    let lastGet: UnsafeMutablePointer<LastPropertyGet>

    init() {
        lastGet = .allocate(capacity: 1)
        lastGet.initialize(to: LastPropertyGet())
    }

    deinit {
        lastGet.deinitialize(count: 1)
        lastGet.deallocate()
    }

    func add(_ path: ObjectPath, _ interfaces: [Interface]) {
        lastGet.pointee = LastPropertyGet()
        var object = Object(interfaces: interfaces)
        for interface in interfaces {
            for property in interface.properties
            where property.changeSignal == .emits || property.changeSignal == .invalidates {
                object.announced[interface.name, default: [:]][property.name] = try? property.getter()
            }
        }
        objects[path] = object
    }

    func remove(_ path: ObjectPath) {
        lastGet.pointee = LastPropertyGet()
        objects[path] = nil
    }

    // MARK: Dispatch

    func dispatch(_ call: Message, raw: OpaquePointer, on core: ConnectionCore) {
        let answer = Answer(call: call, raw: ReceivedMessage(retaining: raw), core: core)
        guard let path = call.path, let member = call.member else {
            return answer.fail(DBusError(DBusError.Name.unknownMethod, "call without path or member"))
        }
        if call.interface == StandardInterfaceName.peer || (call.interface == nil && member == "Ping") {
            return answerPeer(member, answer)
        }
        if call.interface == StandardInterfaceName.introspectable
            || (call.interface == nil && member == "Introspect" && objects[path] == nil) {
            return answerIntrospect(path, member, answer)
        }
        guard let object = objects[path] else {
            return answer.fail(DBusError(DBusError.Name.unknownObject, "no object at path \(path)"))
        }
        if call.interface == StandardInterfaceName.properties {
            return answerProperties(path, object, member, answer)
        }
        let method: Method
        if let name = call.interface {
            guard let interface = object.interface(named: name) else {
                return answer.fail(DBusError(DBusError.Name.unknownInterface,
                                             "object \(path) has no interface \(name)"))
            }
            guard let found = interface.method(named: member) else {
                return answer.fail(DBusError(DBusError.Name.unknownMethod,
                                             "interface \(name) has no method \(member)"))
            }
            method = found
        } else {
            guard let found = object.interfaces.lazy.compactMap({ $0.method(named: member) }).first else {
                if member == "Introspect" { return answerIntrospect(path, member, answer) }
                return answer.fail(DBusError(DBusError.Name.unknownMethod, "object \(path) has no method \(member)"))
            }
            method = found
        }
        guard call.body.count == method.inputs.count,
              zip(call.body, method.inputs).allSatisfy({ $0.type == $1.type }) else {
            return answer.fail(.invalidArgs(
                "\(member) takes '\(method.inputSignature.code)', not '\(call.signature.code)'"))
        }
        switch method.handler {
        case .immediate(let handler):
            answer.complete(checking: method) { try handler(call) }
        case .task(let handler):
            Task { [answer] in
                let result: Result<[DBusValue], Error>
                do { result = .success(try await handler(call)) } catch { result = .failure(error) }
                answer.loop.execute { answer.complete(checking: method) { try result.get() } }
            }
        case .deferred(let handler):
            // Only the first answer counts; a handler that never answers leaves the caller to
            // its own timeout, as a task that never returns would.
            let once = AnswerOnce()
            handler(call) { [answer] result in
                guard once.take() else { return }
                answer.loop.execute { answer.complete(checking: method) { try result.get() } }
            }
        }
    }

    private func answerPeer(_ member: String, _ answer: Answer) {
        guard answer.call.body.isEmpty else {
            return answer.fail(.invalidArgs("\(StandardInterfaceName.peer).\(member) takes no arguments"))
        }
        switch member {
        case "Ping":
            answer.reply([])
        case "GetMachineId":
            guard let id = dbus_get_local_machine_id() else {
                return answer.fail(.failed("no machine id"))
            }
            defer { dbus_free(id) }
            answer.reply([.string(String(cString: id))])
        default:
            answer.fail(DBusError(DBusError.Name.unknownMethod, "\(StandardInterfaceName.peer) has no method \(member)"))
        }
    }

    private func answerIntrospect(_ path: ObjectPath, _ member: String, _ answer: Answer) {
        guard member == "Introspect" else {
            return answer.fail(DBusError(DBusError.Name.unknownMethod,
                                         "\(StandardInterfaceName.introspectable) has no method \(member)"))
        }
        guard answer.call.body.isEmpty else { return answer.fail(.invalidArgs("Introspect takes no arguments")) }
        let children = childNames(of: path)
        let object = objects[path]
        guard object != nil || !children.isEmpty || path == .root else {
            return answer.fail(DBusError(DBusError.Name.unknownObject, "no object at path \(path)"))
        }
        var interfaces = StandardInterface.declarations
        if object == nil { interfaces.removeAll { $0.name == StandardInterfaceName.properties } }
        interfaces += object?.interfaces ?? []
        answer.reply([.string(Introspection.xml(interfaces: interfaces, children: children))])
    }

    /// Names of the nodes directly below `path` that lead to exported objects.
    func childNames(of path: ObjectPath) -> [String] {
        let depth = path.elements.count
        var names = Set<String>()
        for candidate in objects.keys where candidate.isDescendant(of: path) {
            names.insert(String(candidate.elements[depth]))
        }
        return names.sorted()
    }
}

/// The first of a deferred handler's answers: `take` is true exactly once.
private final class AnswerOnce: Sendable {
    private let taken = Mutex(false)

    func take() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
}

/// Sends the one answer a method call gets (nothing when the caller asked for no reply).
struct Answer: @unchecked Sendable {  // invariant: `core` is only used on the loop thread (`loop.execute`)
    let call: Message
    let raw: ReceivedMessage
    let core: ConnectionCore
    var loop: EventLoop { core.loop }

    func reply(_ body: [DBusValue]) {
        guard !call.noReplyExpected else { return }
        do {
            core.send(consuming: try raw.makeReply(body))
        } catch {
            fail(.failed("the reply could not be marshalled: \(error.message)"))
        }
    }

    /// Replies with a body written by `write` straight into the message; what `write` throws is
    /// the error reply.
    func reply(writing write: (inout DBusMessageIter) throws(DBusError) -> Void) {
        guard !call.noReplyExpected else { return }
        do {
            core.send(consuming: try raw.makeReply(writing: write))
        } catch {
            fail(error)
        }
    }

    func fail(_ error: DBusError) {
        guard !call.noReplyExpected else { return }
        core.sendError(error, answering: raw.pointer)
    }

    /// Runs `produce`, checks its values against the method's declared outputs, and answers.
    func complete(checking method: Method, _ produce: () throws -> [DBusValue]) {
        do {
            let body = try produce()
            guard body.count == method.outputs.count,
                  zip(body, method.outputs).allSatisfy({ $0.type == $1.type }) else {
                let produced = Signature(body.map(\.type))
                return fail(.failed("\(method.name) produced '\(produced.code)' but declares '\(method.outputSignature.code)'"))
            }
            reply(body)
        } catch let error as DBusError {
            fail(error)
        } catch {
            fail(.failed(String(describing: error)))
        }
    }
}
