/// A plain-text table for human output: a header row, columns padded to their widest cell
/// in terminal columns (see `displayWidth`: names in any script line up), two spaces between
/// columns, no trailing spaces.
///
/// ```swift
/// var table = TextTable(columns: [.init("LAYER"), .init("FEATURES", alignment: .right)])
/// table.append(["parks", "412"])
/// context.write(table.rendered)
/// ```
public struct TextTable: Sendable {
    public enum Alignment: Sendable {
        case left, right
    }

    public struct Column: Sendable {
        public var header: String
        public var alignment: Alignment

        public init(_ header: String, alignment: Alignment = .left) {
            self.header = header
            self.alignment = alignment
        }
    }

    public var columns: [Column]
    public private(set) var rows: [[String]] = []

    public init(columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing cells are blank, extra cells are dropped.
    public mutating func append(_ row: [String]) {
        rows.append((0..<columns.count).map { $0 < row.count ? row[$0] : "" })
    }

    /// The table, one line per row after the header, each ending in a newline.
    public var rendered: String {
        let allRows = [columns.map(\.header)] + rows
        let widths = columns.indices.map { column in
            allRows.map { $0[column].displayWidth }.max() ?? 0
        }
        return allRows.map { row in
            let cells = columns.indices.map { column -> String in
                let cell = row[column]
                let padding = String(repeating: " ", count: widths[column] - cell.displayWidth)
                return columns[column].alignment == .right ? padding + cell : cell + padding
            }
            return trimmingTrailingSpaces(cells.joined(separator: "  ")) + "\n"
        }.joined()
    }

    private func trimmingTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
