/// Which rows of a layer `create` asks a feature source for. The caller makes the exact
/// choice (the area's geometry test, the clip); the source only narrows the stream: by an
/// envelope pre-filter where it has a spatial index, by the `--where` filter it renders in
/// its own SQL, by key values for related rows.
import Geodatabase
import Geometry

/// The rows of one layer to stream.
public struct RowQuery: Sendable, Hashable {
    public enum Selection: Sendable, Hashable {
        /// Every row.
        case all
        /// The rows whose envelope may meet one of the boxes (in the layer's CRS), each row
        /// once: a source with a spatial index uses it, one without streams every row (the
        /// caller tests each exactly, so more rows than meet the boxes is no error).
        case envelopes([Envelope])
        /// The rows whose `column` holds one of the values (a relationship's key), at most a
        /// few hundred values at a time.
        case keys(column: String, values: [SourceValue])
    }

    public var layer: String
    /// The columns of each row, in this order.
    public var columns: [String]
    public var selection: Selection
    /// The layer's `--where`, parsed; the source renders it for its database.
    public var filter: FilterExpression?

    public init(layer: String, columns: [String], selection: Selection, filter: FilterExpression? = nil) {
        (self.layer, self.columns, self.selection, self.filter) = (layer, columns, selection, filter)
    }
}

/// One hop through a relationship's mapping table (the Related Tables Extension): from key
/// values of one end to those of the other.
public struct MappingHop: Sendable, Hashable {
    public var mappingTable: String
    /// The mapping table's column holding the known end's keys (`base_id` or `related_id`).
    public var fromColumn: String
    /// The column holding the other end's.
    public var toColumn: String

    public init(mappingTable: String, fromColumn: String, toColumn: String) {
        (self.mappingTable, self.fromColumn, self.toColumn) = (mappingTable, fromColumn, toColumn)
    }
}
