import CLibPQ
import Foundation

extension ConnectionInfo {
    /// GDAL's options that name the schema; libpq does not know them.
    static let schemaKeywords: Set<String> = ["schemas", "active_schema"]

    /// Parses a libpq URI, key=value text, or either behind GDAL's `PG:` prefix.
    /// - Throws: ``PostgreSQLError`` of kind `.invalidConnectionInfo` in libpq's words; a
    ///   fragment it quotes is left out when the text may hold a password.
    public init(_ text: String) throws {
        var body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if body.lowercased().hasPrefix("pg:") { body = String(body.dropFirst(3)) }
        let isURI = body.hasPrefix("postgresql://") || body.hasPrefix("postgres://")
        let (libpqText, schemaOptions) = isURI ? Self.splitURI(body) : Self.splitKeyValue(body)
        let (parameters, secrets) = try Self.parseWithLibpq(libpqText)
        self.init(parameters: parameters, secrets: secrets, schemas: Self.schemas(from: schemaOptions))
    }

    /// The connection described by parameters a package stored (``storedParameters``): libpq
    /// options by keyword, and `schema`.
    public init(parameters: [String: String]) throws {
        var options = parameters
        let schema = options.removeValue(forKey: "schema")
        let (libpq, secrets) = try Self.parseWithLibpq(ConninfoText.render(options))
        self.init(parameters: libpq, secrets: secrets, schemas: schema.map { [$0] } ?? [])
    }

    /// Key=value text without GDAL's schema options, and those options.
    static func splitKeyValue(_ text: String) -> (String, [String: String]) {
        // Text libpq cannot read goes to libpq as it is, for libpq to say what is wrong.
        guard let pairs = ConninfoText.pairs(text) else { return (text, [:]) }
        var libpq: [String: String] = [:]
        var gdal: [String: String] = [:]
        var order: [String] = []
        for (key, value) in pairs {
            if schemaKeywords.contains(key) { gdal[key] = value; continue }
            if libpq[key] == nil { order.append(key) }
            libpq[key] = value  // the last one wins, as in libpq
        }
        let rendered = order.map { "\($0)=\(ConninfoText.quote(libpq[$0]!))" }.joined(separator: " ")
        return (rendered, gdal)
    }

    /// A URI without GDAL's schema options in its query, and those options.
    static func splitURI(_ uri: String) -> (String, [String: String]) {
        guard let question = uri.firstIndex(of: "?") else { return (uri, [:]) }
        var gdal: [String: String] = [:]
        let kept = uri[uri.index(after: question)...].split(separator: "&").filter { item in
            let parts = item.split(separator: "=", maxSplits: 1)
            let key = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            guard schemaKeywords.contains(key) else { return true }
            let raw = parts.count > 1 ? String(parts[1]) : ""
            gdal[key] = raw.removingPercentEncoding ?? raw
            return false
        }
        let base = String(uri[..<question])
        return (kept.isEmpty ? base : base + "?" + kept.joined(separator: "&"), gdal)
    }

    /// The active schema first, then the others of `schemas=`, each once.
    static func schemas(from options: [String: String]) -> [String] {
        var names: [String] = []
        let listed = (options["schemas"] ?? "").split(separator: ",")
        for name in [options["active_schema"] ?? ""] + listed.map(String.init) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty && !names.contains(trimmed) { names.append(trimmed) }
        }
        return names
    }

    /// libpq's reading of `text`: the options set, split into public ones and secrets.
    static func parseWithLibpq(_ text: String) throws -> (parameters: [String: String], secrets: [String: String]) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        // Returns NULL on a parse error, with errorMessage to free with PQfreemem (NULL when
        // out of memory); the options array is freed with PQconninfoFree.
        guard let options = PQconninfoParse(text, &errorMessage) else {
            var words = errorMessage.map { String(cString: $0) } ?? "out of memory"
            if let errorMessage { PQfreemem(errorMessage) }
            words = words.trimmingCharacters(in: .whitespacesAndNewlines)
            if ConninfoText.mayHoldSecret(text) { words = ConninfoText.withoutQuotedFragments(words) }
            throw PostgreSQLError(.invalidConnectionInfo, "not a PostgreSQL connection string: \(words)")
        }
        defer { PQconninfoFree(options) }
        var parameters: [String: String] = [:]
        var secrets: [String: String] = [:]
        var index = 0
        while let keyword = options[index].keyword {
            defer { index += 1 }
            guard let value = options[index].val else { continue }
            // dispchar "*" marks a secret (password, sslpassword); "D" a debug option.
            let isSecret = options[index].dispchar.map { $0.pointee == CChar(UInt8(ascii: "*")) } ?? false
            if isSecret {
                secrets[String(cString: keyword)] = String(cString: value)
            } else {
                parameters[String(cString: keyword)] = String(cString: value)
            }
        }
        return (parameters, secrets)
    }
}
