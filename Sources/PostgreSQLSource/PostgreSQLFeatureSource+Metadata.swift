/// The metadata a package copies of a PostgreSQL source: its relationships (foreign keys and
/// those `source relate` declared) whose both tables the package holds, as the package's
/// `pkgbuild_relationships` rows, so the package relates rows as its source does.
///
/// A PostGIS database has none of the GeoPackage's other metadata tables: no
/// `gpkg_data_columns` or `gpkg_data_column_constraints` (a domain's CHECK is not an enum
/// the package could list), no Related Tables Extension and its mapping tables, no
/// `gpkg_extensions` rows of its own; so nothing else is given.
import Geodatabase
import Geometry
import SourceDrivers

extension PostgreSQLFeatureSource {
    /// The package's declaration of the table, as `source relate` creates it in a GeoPackage.
    static let relationshipsDeclaration = """
        CREATE TABLE pkgbuild_relationships (name TEXT NOT NULL PRIMARY KEY, \
        origin_table TEXT NOT NULL, origin_key TEXT NOT NULL, destination_table TEXT NOT NULL, \
        destination_key TEXT NOT NULL, cardinality TEXT NOT NULL \
        CHECK (cardinality IN ('one-to-one', 'one-to-many', 'many-to-many')), \
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))
        """

    public func forEachMetadataItem(tables: [String], keptKeys: (String) -> Set<Int64>,
                                    _ body: (PackageMetadataItem) throws -> Void) throws {
        let inPackage = Set(tables)
        let kept = try relationships().filter { inPackage.contains($0.originTable) && inPackage.contains($0.destinationTable) }
        guard !kept.isEmpty else { return }
        try body(.table(name: SyncSchema.relationshipsTable, declaration: Self.relationshipsDeclaration))
        let columns = ["name", "origin_table", "origin_key", "destination_table", "destination_key", "cardinality"]
        for relationship in kept {
            let values: [SourceValue] = [relationship.name, relationship.originTable, relationship.originKey,
                                         relationship.destinationTable, relationship.destinationKey,
                                         relationship.cardinality.rawValue].map(SourceValue.text)
            try body(.row(table: SyncSchema.relationshipsTable, SourceRow(columns: columns, values: values)))
        }
    }
}
