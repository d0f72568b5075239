import DBus
import Foundation
import TestSupport
import XCTest

/// Well-formed but hostile method calls to every member a target exports, each checked: a reply
/// comes (a return or an error, never silence), and after an error the target's state is what it
/// was before (a rejected call changes nothing).
final class CallFuzzer {
    /// What the fuzzer did, for the report line.
    struct Counts: CustomStringConvertible {
        var calls = 0
        var returns = 0
        var errors = 0
        var stateChecks = 0
        var errorNames: [String: Int] = [:]
        var description: String {
            "\(calls) calls (\(returns) returns, \(errors) errors, \(stateChecks) state comparisons)"
        }
    }

    let connection: Connection
    let destination: String
    var values: FuzzValues
    private(set) var counts = Counts()
    /// Reads the target's observable state (compared around every rejected call).
    private let snapshot: () async throws -> String
    /// Members whose well-formed calls change state on purpose and end the test's subject
    /// (`Stop`, `Quit`, `Unregister`…): they are only ever called with wrong arguments.
    private let onlyMalformed: Set<String>
    private var lastState: String?

    init(connection: Connection, destination: String, seed: UInt64, onlyMalformed: Set<String>,
         snapshot: @escaping () async throws -> String) {
        self.connection = connection
        self.destination = destination
        values = FuzzValues(seed: seed)
        self.onlyMalformed = onlyMalformed
        self.snapshot = snapshot
    }

    /// Every case for `object`: its methods, its properties, and the interfaces and members it lacks.
    func cases(for object: IntrospectedObject) -> [Message] {
        var cases: [Message] = []
        func call(_ interface: String?, _ member: String, _ body: [DBusValue], path: ObjectPath? = nil) {
            cases.append(.methodCall(destination: destination, path: path ?? object.path, interface: interface,
                                     member: member, body: body))
        }
        for method in object.methods {
            let inputs = method.inputs
            let samples = inputs.map(FuzzValues.sample)
            let wellFormedAllowed = !onlyMalformed.contains(method.name)
            if !inputs.isEmpty { call(method.interface, method.name, []) }
            call(method.interface, method.name, samples + [.int32(1)])
            call(method.interface, method.name, samples + [.string(FuzzValues.hugeString)])
            call(method.interface, method.name, [FuzzValues.nestedVariant(FuzzValues.deepestVariant)])
            call(method.interface, method.name, [FuzzValues.hugeArray(of: .string)])
            for index in inputs.indices {
                for _ in 0..<4 {
                    var body = samples
                    body[index] = values.wrongValue(avoiding: inputs[index])
                    call(method.interface, method.name, body)
                }
                guard wellFormedAllowed else { continue }
                for _ in 0..<6 {
                    var body = samples
                    body[index] = values.value(of: inputs[index])
                    call(method.interface, method.name, body)
                }
                var huge = samples
                switch inputs[index] {
                case .string: huge[index] = .string(FuzzValues.hugeString)
                case .array(let element): huge[index] = FuzzValues.hugeArray(of: element)
                case .dictionary(.string, .variant):
                    huge[index] = .dictionary(key: .string, value: .variant, (0..<10_000).map {
                        DictionaryEntry(.string("key\($0)"), .variant(.string("v")))
                    })
                    call(method.interface, method.name, huge)
                    for key in ["category", "mode", "options", "name", "allowDelayedActivation", "notifyOthers"] {
                        huge[index] = .dictionary(key: .string, value: .variant, [
                            DictionaryEntry(.string(key), FuzzValues.nestedVariant(FuzzValues.deepestVariant - 2))])
                        call(method.interface, method.name, huge)
                    }
                default: continue
                }
                call(method.interface, method.name, huge)
            }
            // The member on an interface nobody exports, and without an interface (wrong arguments).
            call("org.mprisd.Fuzz.Nope", method.name, samples)
            call(nil, method.name, samples + [.boolean(true)])
            call(method.interface, method.name, samples, path: try? object.path.appending("nope"))
        }
        for interface in object.interfaces {
            call(interface, "NoSuchMember", [])
            call(interface, "NoSuchMember", [.string(FuzzValues.hugeString)])
        }
        let properties = "org.freedesktop.DBus.Properties"
        for property in object.properties {
            let iface = DBusValue.string(property.interface), name = DBusValue.string(property.name)
            call(properties, "Get", [iface, name])
            call(properties, "Get", [.string("org.mprisd.Fuzz.Nope"), name])
            call(properties, "Get", [iface, name, .int32(0)])
            call(properties, "Get", [.int32(1), .int32(2)])
            for _ in 0..<3 {
                call(properties, "Set", [iface, name, .variant(values.wrongValue(avoiding: property.type))])
            }
            call(properties, "Set", [iface, name, FuzzValues.nestedVariant(FuzzValues.deepestVariant)])
            call(properties, "Set", [iface, name, values.value(of: property.type)])  // not a variant
            call(properties, "Set", [.string("org.mprisd.Fuzz.Nope"), name, .variant(FuzzValues.sample(property.type))])
            if !property.writable {
                call(properties, "Set", [iface, name, .variant(FuzzValues.sample(property.type))])
            } else {
                for _ in 0..<8 { call(properties, "Set", [iface, name, .variant(values.value(of: property.type))]) }
            }
        }
        call(properties, "Get", [.string(object.interfaces.first ?? ""), .string("NoSuchProperty")])
        call(properties, "Set", [.string(object.interfaces.first ?? ""), .string("NoSuchProperty"), .variant(.int32(1))])
        for interface in object.interfaces + ["org.mprisd.Fuzz.Nope", "", "org.freedesktop.DBus.Properties"] {
            call(properties, "GetAll", [.string(interface)])
        }
        call(properties, "GetAll", [])
        call(properties, "GetAll", [.string(FuzzValues.hugeString)])
        call("org.freedesktop.DBus.Introspectable", "Introspect", [.string("x")])
        call("org.freedesktop.DBus.Peer", "Ping", [.int32(1)])
        call("org.freedesktop.DBus.Peer", "GetMachineId", [])
        return cases
    }

    /// `count` random calls: a random member of a random object with 0…4 random arguments.
    func randomCases(_ objects: [IntrospectedObject], count: Int) -> [Message] {
        (0..<count).compactMap { _ -> Message? in
            let object = values.pick(objects)
            guard !object.methods.isEmpty else { return nil }
            let method = values.pick(object.methods)
            var body = (0..<Int(values.rng.next() % 5)).map { _ in values.value(of: values.randomType()) }
            // A well-formed call of a member that must not be called that way gets one more argument.
            if onlyMalformed.contains(method.name), body.map(\.type) == method.inputs { body.append(.byte(1)) }
            return .methodCall(destination: destination, path: object.path, interface: method.interface,
                               member: method.name, body: body)
        }
    }

    /// Sends `message` and checks the answer and, after an error, the state.
    func run(_ message: Message, file: StaticString = #filePath, line: UInt = #line) async throws {
        let before: String
        if let lastState { before = lastState } else { before = try await snapshot() }
        counts.calls += 1
        let label = "\(message.interface ?? "-").\(message.member ?? "?")(\(message.signature.code)) on \(message.path?.rawValue ?? "?")"
        do {
            _ = try await connection.call(message, timeout: .seconds(10))
            counts.returns += 1
            lastState = nil
        } catch {
            counts.errors += 1
            counts.errorNames[error.name, default: 0] += 1
            let silent = [DBusError.Name.noReply, "org.freedesktop.DBus.Error.Timeout", DBusError.Name.serviceUnknown,
                          DBusError.Name.nameHasNoOwner, "org.freedesktop.DBus.Error.Disconnected"]
            XCTAssertFalse(silent.contains(error.name), "\(label): no reply (\(error))", file: file, line: line)
            let after = try await snapshot()
            counts.stateChecks += 1
            XCTAssertEqual(after, before, "\(label) was refused (\(error)) but changed the state", file: file, line: line)
            lastState = after
        }
    }
}
