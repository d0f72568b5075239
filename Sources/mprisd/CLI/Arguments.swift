import SystemContext

/// A small, strict reader of command-line arguments: flags (`--name VALUE`, `--name=VALUE`,
/// switches) and positional operands, with one-line errors for anything unexpected.
///
/// One rule for every command: whatever is not understood — an unknown flag, a flag given twice,
/// an empty value, a stray operand — is a `UsageError`, one line quoting at most an `Excerpt` of
/// the bad argument.
///
/// In-house because no argument-parser package can be fetched here; it does only what the
/// commands need.
struct Arguments {
    private(set) var remaining: [String]

    init(_ arguments: some Sequence<String>) {
        remaining = Array(arguments)
    }

    var isEmpty: Bool { remaining.isEmpty }

    /// Removes and returns the next argument if it is not a flag; an empty one is refused.
    mutating func popOperand() throws(UsageError) -> String? {
        guard let first = remaining.first, !first.hasPrefix("-") || first == "-" else { return nil }
        guard !first.isEmpty else { throw UsageError("an argument is empty") }
        return remaining.removeFirst()
    }

    /// Removes and returns the next argument if it is a finite number, signed or not (`-5`,
    /// `+0.1`, `30`): a leading `-` there is a sign, not a flag.
    mutating func popNumber() -> Double? {
        guard let first = remaining.first, let value = Double(first), value.isFinite,
              first.allSatisfy({ $0.isNumber || "+-.".contains($0) }) else { return nil }
        remaining.removeFirst()
        return value
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
    mutating func popSwitch(_ name: String) throws(UsageError) -> Bool {
        guard let index = flagIndex(name) else { return false }
        remaining.remove(at: index)
        if flagIndex(name) != nil { throw UsageError("\(name) given twice") }
        return true
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns the value, which must not be empty
    /// and must pass `rule` (which returns why a value is bad, as in "takes …, not 'x'").
    mutating func popValue(_ name: String, rule: (String) -> String? = { _ in nil }) throws(UsageError) -> String? {
        guard let value = try takeValue(name) else { return nil }
        if valueIndex(name) != nil { throw UsageError("\(name) given twice") }
        guard !value.isEmpty else { throw UsageError("\(name) needs a value, not an empty one") }
        if let reason = rule(value) { throw UsageError("\(name) \(reason)") }
        return value
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
            let shown = Excerpt.quoted(first)
            throw UsageError(first.hasPrefix("-") ? "unknown option \(shown)" : "unexpected argument \(shown)")
        }
    }

    private mutating func takeValue(_ name: String) throws(UsageError) -> String? {
        guard let index = valueIndex(name) else { return nil }
        let argument = remaining[index]
        if argument == name {
            guard index + 1 < remaining.count else { throw UsageError("\(name) needs a value") }
            let value = remaining[index + 1]
            remaining.removeSubrange(index...(index + 1))
            return value
        }
        remaining.remove(at: index)
        return String(argument.dropFirst(name.count + 1))
    }

    /// Where `--name` or `--name=…` is, before any `--`.
    private func valueIndex(_ name: String) -> Int? {
        for (index, argument) in remaining.enumerated() {
            if argument == "--" { return nil }
            if argument == name || argument.hasPrefix(name + "=") { return index }
        }
        return nil
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
