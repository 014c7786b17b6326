/// Quoting for SQL text built from names (schemas, tables, columns), where a name cannot be a
/// bound parameter. Values go as ``Parameter``s, never as quoted literals.
public enum PostgreSQLQuoting {
    /// `name` as an identifier: in double quotes, inner quotes doubled, so any name (spaces,
    /// quotes, capitals, keywords) is read as exactly that name, never folded to lower case.
    public static func identifier(_ name: String) -> String {
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in name.unicodeScalars {
            result.append(scalar)
            if scalar == "\"" { result.append(scalar) }
        }
        result.append("\"")
        return String(result)
    }

    /// A text array literal (`{"a","b"}`) to bind as one parameter (`$1::text[]`): each
    /// element in double quotes, backslashes and quotes escaped, so no element can end it.
    public static func textArray(_ values: [String]) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }

    /// `schema.name`, each quoted.
    public static func qualified(_ schema: String, _ name: String) -> String {
        identifier(schema) + "." + identifier(name)
    }
}
