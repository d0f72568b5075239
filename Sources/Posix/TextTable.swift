/// Columns of text aligned for a terminal, optionally coloured with ANSI escapes: the one renderer
/// of every table the program prints (`mprisd status`, `mprisd route list`).
///
/// Widths are measured on the text without escapes (a coloured cell pads like a plain one), and
/// every cell goes through `TerminalText.sanitized` first: names come from other programs on the
/// bus or from whoever named a Bluetooth device, and an escape sequence or a newline in a name
/// must neither reach the user's terminal nor break a row in two.
public struct TextTable: Sendable {
    /// A cell's colour; `none` prints the text as it is.
    public enum Colour: String, Sendable {
        case none = ""
        case green = "32"
        case yellow = "33"
        case bold = "1"
    }

    public struct Cell: Sendable {
        public var text: String
        public var colour: Colour

        public init(_ text: String, _ colour: Colour = .none) {
            self.text = TerminalText.sanitized(text)
            self.colour = colour
        }
    }

    public var rows: [[Cell]]
    /// Spaces between columns.
    public var gap: Int
    /// Spaces before the first column.
    public var indent: Int

    public init(rows: [[Cell]] = [], gap: Int = 2, indent: Int = 0) {
        self.rows = rows
        self.gap = gap
        self.indent = indent
    }

    /// A table of plain cells.
    public init(plain rows: [[String]]) {
        self.init(rows: rows.map { $0.map { Cell($0) } })
    }

    /// The lines of the table; the last column is not padded, so no line ends in spaces.
    public func lines(colour: Bool) -> [String] {
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

    /// `cell`'s text, wrapped in its colour's escape when `colour` is asked for.
    public static func paint(_ cell: Cell, colour: Bool) -> String {
        guard colour, cell.colour != .none, !cell.text.isEmpty else { return cell.text }
        return "\u{1B}[\(cell.colour.rawValue)m\(cell.text)\u{1B}[0m"
    }
}
