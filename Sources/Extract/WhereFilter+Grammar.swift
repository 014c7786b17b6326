import Geodatabase

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
    /// - Throws: ``ExtractError`` (`.whereExpression`) naming the filter, the first token that
    ///   does not fit and its position, or the column the layer does not have.
    public func parsed(columns: [String]) throws -> ParsedWhereFilter {
        do {
            return ParsedWhereFilter(layer: layer, expression: expression,
                                     parsed: try FilterParser.parse(expression, columns: columns))
        } catch {
            throw ExtractError(.whereExpression, "--where '\(layer):\(expression)' refused: \(error)")
        }
    }
}
