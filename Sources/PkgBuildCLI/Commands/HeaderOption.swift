import HTTP

/// `--header 'Name: value'`, taken by `tiles`, `create` and `estimate` for an HTTP tile
/// source. Every value is checked when the command line is read, so a malformed header (no
/// colon, a name that is not a token, a line break smuggling in another header) is a usage
/// error naming the option before any work starts.
enum HeaderOption {
    static let definition = ArgumentDefinition.repeatingOption(
        "header", valueName: "NAME: VALUE",
        help: "An HTTP header sent with every tile request (credentials included); never stored.")

    /// The headers given, parsed with `HTTPConfiguration.parseHeader`.
    /// - Throws: `UsageError` naming `--header`, the value and what is wrong with it.
    static func values(_ arguments: ParsedArguments) throws -> [(name: String, value: String)] {
        try arguments.values(definition.name, as: String.self).map { text in
            do {
                return try HTTPConfiguration.parseHeader(text)
            } catch let error as HTTPError {
                let reason: String
                if case .invalidInput(let message) = error.kind { reason = message } else { reason = error.description }
                throw UsageError("The value '\(visible(text))' is invalid for '\(definition.synopsis)': \(visible(reason))")
            }
        }
    }

    /// The text with control characters escaped, so that an error message cannot itself
    /// break lines or move the terminal's cursor.
    private static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
