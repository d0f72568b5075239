/// The order a person expects for track files: runs of digits compare by value (`2` before `10`),
/// everything else case-insensitively, path component by component (a folder's files stay together).
enum NaturalOrder {
    /// Paths compare as shown (invalid UTF-8 as U+FFFD); two that show alike by their bytes.
    static func pathPrecedes(_ lhs: MediaPath, _ rhs: MediaPath) -> Bool {
        let (left, right) = (lhs.description, rhs.description)
        if left == right { return lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
        return pathPrecedes(left, right)
    }

    static func pathPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.split(separator: "/", omittingEmptySubsequences: true)
        let right = rhs.split(separator: "/", omittingEmptySubsequences: true)
        for (a, b) in zip(left, right) where a != b {
            switch compare(a, b) {
            case .before: return true
            case .after: return false
            case .same: continue
            }
        }
        if left.count != right.count { return left.count < right.count }
        return lhs < rhs
    }

    enum Result { case before, same, after }

    static func compare(_ lhs: Substring, _ rhs: Substring) -> Result {
        var a = lhs.unicodeScalars[...]
        var b = rhs.unicodeScalars[...]
        while let x = a.first, let y = b.first {
            if isDigit(x) && isDigit(y) {
                let runA = a.prefix(while: isDigit)
                let runB = b.prefix(while: isDigit)
                let valueA = runA.drop(while: { $0 == "0" })
                let valueB = runB.drop(while: { $0 == "0" })
                if valueA.count != valueB.count { return valueA.count < valueB.count ? .before : .after }
                for (p, q) in zip(valueA, valueB) where p != q { return p < q ? .before : .after }
                a = a.dropFirst(runA.count)
                b = b.dropFirst(runB.count)
                continue
            }
            let p = lowercase(x), q = lowercase(y)
            if p != q { return p < q ? .before : .after }
            a = a.dropFirst()
            b = b.dropFirst()
        }
        if a.isEmpty && b.isEmpty { return .same }
        return a.isEmpty ? .before : .after
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar >= "0" && scalar <= "9"
    }

    private static func lowercase(_ scalar: Unicode.Scalar) -> UInt32 {
        scalar >= "A" && scalar <= "Z" ? scalar.value + 32 : scalar.value
    }
}
