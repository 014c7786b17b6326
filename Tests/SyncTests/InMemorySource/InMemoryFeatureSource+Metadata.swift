/// The metadata a package copies of the in-memory source, chosen from the items the source
/// records for all its layers as the GeoPackage driver chooses them from its tables: data
/// columns of the package's tables and their constraints, the relationships whose both ends
/// it holds (with the mapping links whose both ends it holds), and the extension rows of
/// those tables.
import Geodatabase
import Geometry
import SourceDrivers

extension InMemoryFeatureSource {
    func forEachMetadataItem(tables: [String], keptKeys: (String) -> Set<Int64>,
                             _ body: (PackageMetadataItem) throws -> Void) throws {
        let inPackage = Set(tables.map { SQLName($0) })
        let mappings = state.featureRecords.relationships.filter {
            $0.mappingTable != nil && inPackage.contains(SQLName($0.originTable)) && inPackage.contains(SQLName($0.destinationTable))
        }
        let mappingNames = Set(mappings.compactMap { $0.mappingTable.map { SQLName($0) } })
        var declared: Set<SQLName> = []
        var constraintNames: Set<SourceValue> = []
        for item in state.featureRecords.metadata {
            switch item {
            case .table(let name, _):
                let table = SQLName(name)
                let always = ["gpkg_data_columns", "gpkg_data_column_constraints", "pkgbuild_relationships"].map { SQLName($0) }
                guard always.contains(table) || (table == SQLName("gpkgext_relations") && !mappings.isEmpty)
                    || mappingNames.contains(table) else { continue }
                declared.insert(table)
                try body(item)
            case .row(let table, let row):
                guard try takes(row, of: SQLName(table), inPackage: inPackage, mappings: mappings, declared: declared,
                                constraintNames: constraintNames, keptKeys: keptKeys) else { continue }
                if SQLName(table) == SQLName("gpkg_data_columns"), let name = row["constraint_name"], name != .null {
                    constraintNames.insert(name)
                }
                try body(item)
            }
        }
    }

    /// Whether the package takes this row of a metadata table (`declared`: the tables declared
    /// so far, each before its rows).
    private func takes(_ row: SourceRow, of table: SQLName, inPackage: Set<SQLName>, mappings: [Relationship],
                       declared: Set<SQLName>, constraintNames: Set<SourceValue>, keptKeys: (String) -> Set<Int64>) throws -> Bool {
        func named(_ column: String) -> SQLName? { row[column]?.stringValue.map { SQLName($0) } }
        func held(_ column: String) -> Bool { named(column).map(inPackage.contains) ?? false }
        switch table {
        case SQLName("gpkg_data_columns"): return held("table_name")
        case SQLName("gpkg_data_column_constraints"): return row["constraint_name"].map(constraintNames.contains) ?? false
        case SQLName("pkgbuild_relationships"): return held("origin_table") && held("destination_table")
        case SQLName("gpkgext_relations"):
            return mappings.contains { r in named("mapping_table_name") == r.mappingTable.map { SQLName($0) } }
        case SQLName("gpkg_extensions"):
            let extensionName = row["extension_name"]?.stringValue
            guard extensionName != "gpkg_rtree_index", extensionName != SyncSchema.extensionName else { return false }
            return named("table_name").map { inPackage.contains($0) || declared.contains($0) } ?? false
        default:
            guard let relationship = mappings.first(where: { $0.mappingTable.map { SQLName($0) } == table }) else { return false }
            guard case .integer(let base)? = row["base_id"], case .integer(let related)? = row["related_id"] else { return false }
            return keptKeys(relationship.originTable).contains(base) && keptKeys(relationship.destinationTable).contains(related)
        }
    }
}
