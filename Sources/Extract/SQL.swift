/// Quoting for SQL text built from names read from a database.
enum SQL {
    /// A double-quoted identifier with embedded quotes doubled.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A single-quoted string literal with embedded quotes doubled.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
