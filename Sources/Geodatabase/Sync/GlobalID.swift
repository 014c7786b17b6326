/// Global ids: the identity of a row across the source and every package made from it
/// (fids are local to each database).
///
/// Format, chosen to match the GlobalIDs ArcGIS writes (so an adopted Esri column and our
/// new values look alike): a version-4 UUID in upper case, with braces,
/// `{8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5B}`. Existing values of an adopted column are kept
/// as they are, whatever their form; rows are matched by the exact stored text.
///
/// New ids come from ``sqlExpression`` inside triggers (core SQL only: `randomblob` and
/// `random`, so GDAL, QGIS and sqlite3 can insert rows), or from ``make()`` in Swift.
import Foundation

public enum GlobalID {
    /// A fresh global id, in the module's format.
    public static func make() -> String { "{" + UUID().uuidString.uppercased() + "}" }

    /// An SQL expression (core functions only) that yields a fresh global id in the module's
    /// format each time it is evaluated: version nibble 4, variant 8/9/A/B.
    /// `random() & 3` rather than `abs(random()) % 4`, which overflows for the smallest integer.
    public static let sqlExpression = """
        ('{' || hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) \
        || '-' || substr('89AB', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' \
        || hex(randomblob(6)) || '}')
        """

    /// True when `text` is a UUID in the module's format or in the plain 36-character form,
    /// any letter case (adopted columns may hold either).
    public static func isWellFormed(_ text: String) -> Bool { normalized(text) != nil }

    /// The form every spelling of one globalid shares, as people type them (`{8a3b...}`,
    /// `8A3B...`, with spaces around): the UUID's 32 hex digits and 4 dashes in upper case,
    /// without braces. Nil for text that is not a UUID. The one parser of typed globalids:
    /// compare the result with ``normalizedSQL(_:)`` of a stored column.
    public static func normalized(_ text: String) -> String? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if body.hasPrefix("{") && body.hasSuffix("}") { body = body.dropFirst().dropLast() }
        return UUID(uuidString: String(body)).map { _ in body.uppercased() }
    }

    /// SQL for the normalized form of a stored globalid (`column` is already quoted): stored
    /// ids keep whatever form they were adopted in.
    public static func normalizedSQL(_ column: String) -> String { "upper(trim(\(column), '{}'))" }

    /// Whether a stored globalid is the one `typed` names: the same UUID however each is
    /// spelt, or, for an adopted id that is no UUID, the same text.
    public static func matches(_ stored: String, typed: String) -> Bool {
        guard let given = normalized(typed) else { return stored == typed }
        var body = Substring(stored)
        while body.first == "{" { body = body.dropFirst() }
        while body.last == "}" { body = body.dropLast() }
        return body.uppercased() == given
    }

    /// The SQL condition (one `?`) and its argument selecting the rows of `column` (quoted)
    /// whose globalid `typed` names, as ``matches(_:typed:)`` decides.
    public static func condition(_ column: String, typed: String) -> (sql: String, argument: String) {
        guard let given = normalized(typed) else { return ("\(column) = ?", typed) }
        return ("\(normalizedSQL(column)) = ?", given)
    }
}
