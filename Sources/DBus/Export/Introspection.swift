/// Builds `org.freedesktop.DBus.Introspectable.Introspect` XML from `Interface` declarations.
enum Introspection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static func xml(interfaces: [Interface], children: [String]) -> String {
        var out = header + "<node>\n"
        for interface in interfaces { append(interface, to: &out) }
        for child in children { out += "  <node name=\"\(escape(child))\"/>\n" }
        out += "</node>\n"
        return out
    }

    private static func append(_ interface: Interface, to out: inout String) {
        out += "  <interface name=\"\(escape(interface.name))\">\n"
        for method in interface.methods {
            let args = method.inputs.map { ($0, "in") } + method.outputs.map { ($0, "out") }
            if args.isEmpty {
                out += "    <method name=\"\(method.name)\"/>\n"
                continue
            }
            out += "    <method name=\"\(method.name)\">\n"
            for (arg, direction) in args {
                out += "      <arg\(nameAttribute(arg)) type=\"\(arg.type.code)\" direction=\"\(direction)\"/>\n"
            }
            out += "    </method>\n"
        }
        for signal in interface.signals {
            if signal.arguments.isEmpty {
                out += "    <signal name=\"\(signal.name)\"/>\n"
                continue
            }
            out += "    <signal name=\"\(signal.name)\">\n"
            for arg in signal.arguments {
                out += "      <arg\(nameAttribute(arg)) type=\"\(arg.type.code)\"/>\n"
            }
            out += "    </signal>\n"
        }
        for property in interface.properties {
            let access = property.isWritable ? "readwrite" : "read"
            out += "    <property name=\"\(property.name)\" type=\"\(property.type.code)\" access=\"\(access)\""
            if property.changeSignal == .emits {
                out += "/>\n"
            } else {
                out += ">\n      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" "
                    + "value=\"\(property.changeSignal.rawValue)\"/>\n    </property>\n"
            }
        }
        out += "  </interface>\n"
    }

    private static func nameAttribute(_ arg: Argument) -> String {
        arg.name.map { " name=\"\(escape($0))\"" } ?? ""
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
