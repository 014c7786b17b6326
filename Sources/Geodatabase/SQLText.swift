/// Quoting for SQL text the module generates (triggers, DDL), where a table or column name
/// cannot be a bound parameter.

/// `name` as an SQL identifier: in double quotes, inner quotes doubled, so any name a
/// GeoPackage holds (spaces, quotes, keywords) is safe.
func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// `text` as an SQL string literal: in single quotes, inner quotes doubled.
func literal(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}
