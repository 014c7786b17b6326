/// What a feature source hands the package besides its layers' rows: the tables that
/// describe them (data columns and their constraints, relationships, the Related Tables
/// Extension's mapping tables with the links whose both ends the package holds, extension
/// rows). The package is a GeoPackage, so these are GeoPackage tables, named and declared as
/// GeoPackage names and declares them; a source of another kind gives the same tables from
/// its own records.
import Geometry

/// One piece of the package's metadata, in the order the package writes them.
public enum PackageMetadataItem: Sendable, Hashable {
    /// A table the package does not have yet, with its `CREATE TABLE` statement.
    case table(name: String, declaration: String)
    /// A row of a metadata table (one declared before, or a GeoPackage core table such as
    /// `gpkg_extensions`).
    case row(table: String, SourceRow)
}
