/// The interfaces every exported object answers without being told.
enum StandardInterface {
    /// Their declarations, for introspection. Handlers are never called: `ObjectTable` answers
    /// these members itself.
    static let declarations: [Interface] = {
        let unused: Method.Handler = .immediate { _ in [] }
        return [
            Interface(StandardInterfaceName.peer, methods: [
                Method("Ping", handler: unused),
                Method("GetMachineId", outputs: [Argument("machine_uuid", .string)], handler: unused),
            ]),
            Interface(StandardInterfaceName.introspectable, methods: [
                Method("Introspect", outputs: [Argument("xml_data", .string)], handler: unused),
            ]),
            Interface(StandardInterfaceName.properties, methods: [
                Method("Get", inputs: [Argument("interface_name", .string), Argument("property_name", .string)],
                       outputs: [Argument("value", .variant)], handler: unused),
                Method("GetAll", inputs: [Argument("interface_name", .string)],
                       outputs: [Argument("properties", .dictionary(key: .string, value: .variant))],
                       handler: unused),
                Method("Set", inputs: [Argument("interface_name", .string), Argument("property_name", .string),
                                       Argument("value", .variant)], handler: unused),
            ], signals: [
                SignalDescription("PropertiesChanged", [
                    Argument("interface_name", .string),
                    Argument("changed_properties", .dictionary(key: .string, value: .variant)),
                    Argument("invalidated_properties", .array(.string)),
                ]),
            ]),
        ]
    }()
}
