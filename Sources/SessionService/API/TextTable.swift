/// Columns of text aligned for a terminal, optionally coloured with ANSI escapes.
///
/// Widths are measured on the text without escapes (a coloured cell pads like a plain one), and
/// every cell is cleaned of control characters first: names come from other programs on the bus,
/// and an escape sequence in a display name must not reach the user's terminal.
struct TextTable {
    /// A cell's colour; `none` prints the text as it is.
    enum Colour: String {
        case none = ""
        case green = "32"
        case yellow = "33"
        case bold = "1"
    }

    struct Cell {
        var text: String
        var colour: Colour

        init(_ text: String, _ colour: Colour = .none) {
            self.text = TextTable.clean(text)
            self.colour = colour
        }
    }

    var rows: [[Cell]] = []
    /// Spaces between columns.
    var gap = 2
    /// Spaces before the first column.
    var indent = 0

    /// The lines of the table; the last column is not padded, so no line ends in spaces.
    func lines(colour: Bool) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.text.count) }
        }
        return rows.map { row in
            var line = String(repeating: " ", count: indent)
            for (index, cell) in row.enumerated() {
                line += Self.paint(cell, colour: colour)
                if index < row.count - 1 {
                    line += String(repeating: " ", count: widths[index] - cell.text.count + gap)
                }
            }
            return line
        }
    }

    static func paint(_ cell: Cell, colour: Bool) -> String {
        guard colour, cell.colour != .none, !cell.text.isEmpty else { return cell.text }
        return "\u{1B}[\(cell.colour.rawValue)m\(cell.text)\u{1B}[0m"
    }

    /// `text` with every control character (C0, DEL, C1: ESC, newlines, tabs …) replaced by `?`.
    static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isControl(scalar) ? "?" : scalar) }
        return String(scalars)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
