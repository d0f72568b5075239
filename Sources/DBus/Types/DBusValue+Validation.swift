extension DBusValue {
    /// The deepest container nesting (arrays, dicts, structs and variants together) a message may
    /// carry, per the D-Bus specification.
    public static let maximumNesting = 64

    /// Checks that the value can be marshalled: container elements have the declared types, strings
    /// hold no NUL, structs are not empty, nesting stays within the specification's limits.
    ///
    /// Everything the binding sends goes through this first, so a bad outgoing value is a thrown
    /// `InvalidArgs`, never a libdbus warning or a trap.
    public func validate() throws(DBusError) {
        try validate(depth: 0)
    }

    private func validate(depth: Int) throws(DBusError) {
        switch self {
        case .string(let text):
            guard !text.utf8.contains(0) else {
                throw DBusError.invalidArgs("a D-Bus string must not contain NUL")
            }
        case .array(let element, let items):
            try checkDepth(depth)
            for item in items {
                guard item.hasType(element) else {
                    throw DBusError.invalidArgs("array of '\(element.code)' holds a '\(item.type.code)'")
                }
                try item.validate(depth: depth + 1)
            }
        case .dictionary(let key, let value, let entries):
            try checkDepth(depth)
            guard key.isBasic else {
                throw DBusError.invalidArgs("dictionary key type '\(key.code)' is not basic")
            }
            for entry in entries {
                guard entry.key.hasType(key), entry.value.hasType(value) else {
                    throw DBusError.invalidArgs(
                        "dictionary 'a{\(key.code)\(value.code)}' holds a '\(entry.key.type.code)' → '\(entry.value.type.code)' entry")
                }
                try entry.key.validate(depth: depth + 1)
                try entry.value.validate(depth: depth + 1)
            }
        case .struct(let fields):
            try checkDepth(depth)
            guard !fields.isEmpty else { throw DBusError.invalidArgs("a struct needs at least one field") }
            for field in fields { try field.validate(depth: depth + 1) }
        case .variant(let inner):
            try checkDepth(depth)
            try inner.validate(depth: depth + 1)
        default:
            break
        }
    }

    private func checkDepth(_ depth: Int) throws(DBusError) {
        guard depth < Self.maximumNesting else {
            throw DBusError.invalidArgs("value nests containers deeper than \(Self.maximumNesting)")
        }
    }
}
