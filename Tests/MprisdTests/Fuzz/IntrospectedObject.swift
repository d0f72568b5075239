import DBus
import TestSupport

/// What a live object says it exports (its `Introspect` XML), so the fuzzer covers every method
/// and property, including ones added later, without a list kept by hand.
struct IntrospectedObject {
    struct Method {
        var interface: String
        var name: String
        var inputs: [DBusType]
    }

    struct Property {
        var interface: String
        var name: String
        var type: DBusType
        var writable: Bool
    }

    var path: ObjectPath
    var methods: [Method] = []
    var properties: [Property] = []
    var children: [String] = []

    /// The interfaces the object declares.
    var interfaces: [String] {
        var seen: [String] = []
        for name in methods.map(\.interface) + properties.map(\.interface) where !seen.contains(name) {
            seen.append(name)
        }
        return seen
    }

    /// Parses the XML attribute by attribute (the format is flat and generated, so tags suffice).
    init(path: ObjectPath, xml: String) throws {
        self.path = path
        var interface = ""
        var method: Method?
        for rawTag in xml.split(separator: "<").dropFirst() {
            let tag = rawTag.prefix(while: { $0 != ">" })
            let closing = tag.hasPrefix("/")
            let element = (closing ? "/" : "") + tag.drop(while: { $0 == "/" }).prefix(while: { $0 != " " && $0 != "/" && $0 != ">" })
            func attribute(_ name: String) -> String? {
                guard let range = tag.range(of: " \(name)=\"") else { return nil }
                return String(tag[range.upperBound...].prefix(while: { $0 != "\"" }))
            }
            switch element {
            case "interface":
                interface = attribute("name") ?? ""
            case "method":
                if let method { methods.append(method) }
                method = Method(interface: interface, name: attribute("name") ?? "", inputs: [])
                if tag.hasSuffix("/") {
                    methods.append(method!)
                    method = nil
                }
            case "/method":
                if let method { methods.append(method) }
                method = nil
            case "arg":
                guard method != nil, attribute("direction") != "out", let code = attribute("type") else { continue }
                method?.inputs += try Signature(parsing: code).types
            case "property":
                guard let name = attribute("name"), let code = attribute("type"),
                      let type = try Signature(parsing: code).types.first else { continue }
                properties.append(Property(interface: interface, name: name, type: type,
                                           writable: attribute("access")?.contains("write") ?? false))
            case "node":
                if let name = attribute("name"), !name.hasPrefix("/"), !name.isEmpty { children.append(name) }
            default:
                continue
            }
        }
    }

    /// Introspects `path` of `destination`, and every object below it.
    static func walk(_ connection: Connection, destination: String, from path: ObjectPath) async throws -> [IntrospectedObject] {
        let reply = try await connection.call(destination: destination, path: path,
                                              interface: "org.freedesktop.DBus.Introspectable",
                                              member: "Introspect", timeout: .seconds(5))
        guard case .string(let xml)? = reply.first else { throw TestSupportError("Introspect of \(path): \(reply)") }
        let object = try IntrospectedObject(path: path, xml: xml)
        var all = [object]
        for child in object.children {
            all += try await walk(connection, destination: destination, from: try path.appending(child))
        }
        return all
    }
}
