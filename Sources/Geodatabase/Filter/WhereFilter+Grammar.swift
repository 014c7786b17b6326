import SQLite

/// A `--where` filter read in the filter grammar (see ``FilterExpression``) against the
/// columns of its layer: what `create` and `estimate` hand to the source, which renders it in
/// its own dialect.
public struct ParsedWhereFilter: Sendable, Hashable {
    public var layer: String
    /// The text as written, which the package and the source's registry keep: it is in the
    /// grammar, so whoever reads it back can parse it again.
    public var expression: String
    public var parsed: FilterExpression
}

extension WhereFilter {
    /// The filter parsed in the grammar against the layer's columns.
    /// - Throws: ``GeodatabaseError`` (`filter`) naming the filter, the first token that
    ///   does not fit and its position, or the column the layer does not have.
    public func parsed(columns: [String]) throws -> ParsedWhereFilter {
        do {
            return ParsedWhereFilter(layer: layer, expression: expression,
                                     parsed: try FilterParser.parse(expression, columns: columns))
        } catch {
            throw GeodatabaseError(.filter, "--where '\(layer):\(expression)' refused: \(error)")
        }
    }
}

extension WhereFilter {
    /// A filter read back from a package or a source's registry, made safe to run on
    /// `connection`: its parse when it is in the grammar (every filter `create` has taken since
    /// there is one), else the verdict of ``check(on:table:)`` on its text, so that a package
    /// made before the grammar keeps syncing.
    /// - Returns: the parse against the table's columns; nil for text that only the authorizer
    ///   check vouches for, to be run as it is.
    /// - Throws: ``GeodatabaseError`` (`filter`) when the text is neither.
    public func storedExpression(on connection: Connection, table: String) throws -> FilterExpression? {
        let columns = try connection.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0[0].stringValue }
        if let parsed = try? FilterParser.parse(expression, columns: columns) { return parsed }
        try check(on: connection, table: table)
        return nil
    }
}
