/// Quoting for SQL text built from names read from a database (tables, columns, triggers),
/// where a name cannot be a bound parameter.
public enum SQL {
    /// `name` as an SQL identifier: in double quotes, inner quotes doubled, so any name a
    /// database holds (spaces, quotes, keywords) is safe.
    public static func identifier(_ name: String) -> String {
        // Called per row while statements are built (sync): skip Foundation's search for the
        // common case of a name without quotes.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + doubling("\"", in: name) + "\""
    }

    /// `text` as an SQL string literal: in single quotes, inner quotes doubled.
    public static func literal(_ text: String) -> String {
        "'" + doubling("'", in: text) + "'"
    }

    /// `text` with every `quote` doubled, by Unicode scalar: SQLite reads bytes, so a quote
    /// followed by a combining mark (one Character to Swift, which Character-wise replacing
    /// and splitting pass over) is a quote to it.
    private static func doubling(_ quote: Unicode.Scalar, in text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(scalar)
            if scalar == quote { result.append(scalar) }
        }
        return String(result)
    }
}
