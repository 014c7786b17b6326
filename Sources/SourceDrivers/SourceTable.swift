/// A source's tables as its driver describes them for sync: names as the source spells them,
/// each column with the GeoPackage type it maps to and its base type (the feature source's
/// column description), so sync can compare a package's schema with any backend's.
import Geodatabase
import Geometry

/// The kind of value a column holds, whatever the database calls its type (after geodiff's
/// `BaseType`): what a driver maps its own types to, and what a package column is made of.
public enum BaseType: String, Sendable, Hashable, CaseIterable {
    case integer, real, text, blob, boolean, date, datetime, geometry
}

/// A table under the source's change tracking.
public struct SourceTable: Sendable, Hashable {
    public var name: String
    /// The source's own primary key (numbered by the source, never synced).
    public var keyColumn: String
    /// The global id column that matches rows across databases.
    public var globalIDColumn: String
    /// Every column in table order, the key and the global id included (the GeoPackage type
    /// each maps to, and its base type).
    public var columns: [FeatureColumn]
    /// The geometry column: its declared type, srs id (in the source's numbering), Z and M.
    public var geometry: GeometryColumnInfo?

    public init(name: String, keyColumn: String, globalIDColumn: String, columns: [FeatureColumn],
                geometry: GeometryColumnInfo? = nil) {
        (self.name, self.keyColumn, self.globalIDColumn, self.columns, self.geometry)
            = (name, keyColumn, globalIDColumn, columns, geometry)
    }
}
