import Geodatabase
import Geometry
import PackageFormat
import SourceDrivers
import SQLite

/// How one table of the source is taken into the package.
struct LayerPlan: Sendable {
    enum Mode: Sendable, Hashable {
        /// Features chosen by the area (plus related rows).
        case spatial
        /// An attribute table without relationships: every row.
        case whole
        /// An attribute table with relationships: only rows related to the area's rows.
        case relatedOnly
        /// The schema and no rows.
        case schemaOnly
    }

    var info: FeatureLayer
    /// The table as it will be in the package (type promoted for clipping, CRS changed).
    var table: PackageTable
    var mode: Mode
    var filter: ParsedWhereFilter?
    var cut: LayerCut
    /// The source and package CRS as `EPSG:n` (or `srs_id:n` without an EPSG code).
    var sourceCRS: String?
    var packageCRS: String?
    /// PROJ definitions for the reprojection; nil when the layer keeps its CRS.
    var sourceCRSDefinition: String?
    var packageCRSDefinition: String?

    var name: String { info.name }
}

/// A row on its way from the reading worker to the writer: values in the table's column
/// order, the geometry already encoded for the package.
struct PackageRow: Sendable {
    var values: [SQLiteValue]
    var envelope: Envelope?
}

/// Messages from the reading worker to the writer, in order.
enum ExtractMessage: Sendable {
    case createTable(PackageTable)
    case rows(table: String, rows: [PackageRow])
    /// SQL for the package, run in its transaction (copied metadata).
    case sql(String, [SQLiteValue])
}

/// What the reading worker found, per layer and overall.
struct ExtractTally: Sendable {
    var selected: [String: Int] = [:]
    var related: [String: Int] = [:]
    var skippedInvalid: [String: Int] = [:]
    var generation: Int64?
    /// The source's change-log cursor read with the rows, for the package's first sync.
    var cursor: String?
    var warnings: [String] = []
}

/// The source a planning opened, handed on to the one worker that reads it (the planner is
/// done with it by then, and only that worker touches it until the read ends).
final class OpenedSource: @unchecked Sendable {
    let source: any FeatureSource

    init(_ source: any FeatureSource) {
        self.source = source
    }
}
