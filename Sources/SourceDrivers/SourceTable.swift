/// A source's tables as its driver describes them: names as the source spells them, each
/// column with the GeoPackage type it maps to and its base type, so sync can compare a
/// package's schema with any backend's.
import Geometry

/// The kind of value a column holds, whatever the database calls its type (after geodiff's
/// `BaseType`): what a driver maps its own types to, and what a package column is made of.
public enum BaseType: String, Sendable, Hashable, CaseIterable {
    case integer, real, text, blob, boolean, date, datetime, geometry
}

/// One column of a source table.
public struct SourceColumn: Sendable, Hashable {
    public var name: String
    /// The column's type as a GeoPackage declares it (`TEXT`, `INTEGER`, `DATETIME`,
    /// `POINT`...): the type a package built from the source gives the column.
    public var declaredType: String
    public var baseType: BaseType

    public init(name: String, declaredType: String, baseType: BaseType) {
        (self.name, self.declaredType, self.baseType) = (name, declaredType, baseType)
    }
}

/// The geometry column of a source table.
public struct SourceGeometryColumn: Sendable, Hashable {
    public var name: String
    /// The id of the column's spatial reference system in the source's numbering.
    public var srsID: Int64
    /// Its declared geometry type and Z/M rules: what the source takes in it.
    public var declaredType: DeclaredGeometryType

    public init(name: String, srsID: Int64, declaredType: DeclaredGeometryType) {
        (self.name, self.srsID, self.declaredType) = (name, srsID, declaredType)
    }
}

/// A table under the source's change tracking.
public struct SourceTable: Sendable, Hashable {
    public var name: String
    /// The source's own primary key (numbered by the source, never synced).
    public var keyColumn: String
    /// The global id column that matches rows across databases.
    public var globalIDColumn: String
    /// Every column in table order, the key and the global id included.
    public var columns: [SourceColumn]
    public var geometry: SourceGeometryColumn?

    public init(name: String, keyColumn: String, globalIDColumn: String, columns: [SourceColumn],
                geometry: SourceGeometryColumn? = nil) {
        (self.name, self.keyColumn, self.globalIDColumn, self.columns, self.geometry) = (name, keyColumn, globalIDColumn, columns, geometry)
    }
}

/// A coordinate reference system of the source, by the id its geometries carry.
public struct SourceCRS: Sendable, Hashable {
    public var srsID: Int64
    /// What PROJ takes: `AUTH:CODE` or WKT.
    public var definition: String
    /// How messages name it (`EPSG:4326`).
    public var label: String

    public init(srsID: Int64, definition: String, label: String) {
        (self.srsID, self.definition, self.label) = (srsID, definition, label)
    }
}
