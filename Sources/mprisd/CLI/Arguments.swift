/// A small, strict reader of command-line arguments: flags (`--name VALUE`, `--name=VALUE`,
/// switches) and positional operands, with one-line errors for anything unexpected.
///
/// In-house because no argument-parser package can be fetched here; it does only what the
/// commands need.
struct Arguments {
    private(set) var remaining: [String]

    init(_ arguments: some Sequence<String>) {
        remaining = Array(arguments)
    }

    var isEmpty: Bool { remaining.isEmpty }

    /// Removes and returns the next argument if it is not a flag.
    mutating func popOperand() -> String? {
        guard let first = remaining.first, !first.hasPrefix("-") || first == "-" else { return nil }
        return remaining.removeFirst()
    }

    /// Whether `--help`/`-h` appears before any `--`.
    var wantsHelp: Bool {
        for argument in remaining {
            if argument == "--" { return false }
            if argument == "--help" || argument == "-h" { return true }
        }
        return false
    }

    /// Removes a switch; true if it was present.
    mutating func popSwitch(_ name: String) -> Bool {
        guard let index = flagIndex(name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns the value.
    mutating func popValue(_ name: String) throws(UsageError) -> String? {
        for (index, argument) in remaining.enumerated() {
            if argument == "--" { break }
            if argument == name {
                guard index + 1 < remaining.count else { throw UsageError("\(name) needs a value") }
                let value = remaining[index + 1]
                remaining.removeSubrange(index...(index + 1))
                return value
            }
            if argument.hasPrefix(name + "=") {
                remaining.remove(at: index)
                return String(argument.dropFirst(name.count + 1))
            }
        }
        return nil
    }

    /// Removes `--` and returns everything after it.
    mutating func popAfterDoubleDash() -> [String]? {
        guard let index = remaining.firstIndex(of: "--") else { return nil }
        let rest = Array(remaining[(index + 1)...])
        remaining.removeSubrange(index...)
        return rest
    }

    /// Fails on whatever was not consumed.
    func expectEnd() throws(UsageError) {
        if let first = remaining.first {
            throw UsageError(first.hasPrefix("-") ? "unknown option '\(first)'" : "unexpected argument '\(first)'")
        }
    }

    private func flagIndex(_ name: String) -> Int? {
        for (index, argument) in remaining.enumerated() {
            if argument == "--" { return nil }
            if argument == name { return index }
        }
        return nil
    }
}

/// A bad command line: printed as one line, exit status 64 (EX_USAGE).
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
