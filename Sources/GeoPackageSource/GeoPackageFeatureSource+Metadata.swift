/// The metadata a package copies of a GeoPackage source: its data columns and their
/// constraints, the relationships between copied tables (ours and the Related Tables
/// Extension's, with the mapping rows whose both ends were copied), and their extension rows.
/// The package is a GeoPackage too, so each table keeps its source's declaration.
import Geodatabase
import Geometry
import SourceDrivers
import SQLite

extension GeoPackageFeatureSource {
    public func forEachMetadataItem(tables: [String], keptKeys: (String) -> Set<Int64>,
                                    _ body: (PackageMetadataItem) throws -> Void) throws {
        let inPackage = Set(tables.map { SQLName($0) })
        let tableList = inPackage.map { SQL.literal($0.folded) }.joined(separator: ", ")
        var copied: [String] = []
        /// Declares a metadata table as the source does; false when the source has none.
        func declare(_ table: String) throws -> Bool {
            guard try tableExists(table, in: connection), let sql = try connection.scalar(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])?.stringValue else { return false }
            try body(.table(name: table, declaration: sql))
            copied.append(table)
            return true
        }
        func copyRows(_ table: String, where condition: String, _ arguments: [SQLiteValue] = []) throws {
            let statement = try connection.prepare("SELECT * FROM \(SQL.identifier(table)) WHERE \(condition)")
            try statement.bind(arguments)
            let names = statement.columnNames
            while try statement.step() {
                try body(.row(table: table, SourceRow(columns: names, values: statement.values.map { SourceValue($0, isGeometry: false) })))
            }
        }
        if try declare("gpkg_data_columns") {
            try copyRows("gpkg_data_columns", where: "lower(table_name) IN (\(tableList))")
            if try declare("gpkg_data_column_constraints") {
                // In the source's rowid order: an enum's values are listed in the order they were
                // written, which the unique index the IN would otherwise follow does not keep.
                try copyRows("gpkg_data_column_constraints", where: """
                    constraint_name IN (SELECT constraint_name FROM gpkg_data_columns WHERE lower(table_name) IN (\(tableList)))
                    ORDER BY rowid
                    """)
            }
        }
        if try declare("pkgbuild_relationships") {
            try copyRows("pkgbuild_relationships",
                         where: "lower(origin_table) IN (\(tableList)) AND lower(destination_table) IN (\(tableList))")
        }
        let mappings = schema.relationships.filter {
            $0.mappingTable != nil && inPackage.contains(SQLName($0.originTable)) && inPackage.contains(SQLName($0.destinationTable))
        }
        if !mappings.isEmpty, try declare("gpkgext_relations") {
            for r in mappings {
                guard let mapping = r.mappingTable, try tableExists(mapping, in: connection) else { continue }
                try copyRows("gpkgext_relations", where: "mapping_table_name = ?", [.text(mapping)])
                guard try declare(mapping) else { continue }
                try copyLinks(of: mapping, base: keptKeys(r.originTable), related: keptKeys(r.destinationTable), body)
            }
        }
        if try tableExists("gpkg_extensions", in: connection) {
            let names = (copied.map { SQLName($0) } + Array(inPackage)).map { SQL.literal($0.folded) }.joined(separator: ", ")
            try copyRows("gpkg_extensions", where: """
                lower(table_name) IN (\(names)) AND extension_name NOT IN ('gpkg_rtree_index', \(SQL.literal(SyncSchema.extensionName)))
                """)
        }
    }

    /// The mapping rows whose both ends the package holds; a sync-enabled source's links keep
    /// their global ids (sync matches links by them).
    private func copyLinks(of mapping: String, base: Set<Int64>, related: Set<Int64>,
                           _ body: (PackageMetadataItem) throws -> Void) throws {
        let globalID = try connection.scalar("SELECT name FROM pragma_table_info(?) WHERE lower(name) = 'globalid'",
                                             [.text(mapping)])?.stringValue
        let columns = ["base_id", "related_id"] + (globalID.map { [$0] } ?? [])
        let statement = try connection.prepare("SELECT \(columns.map(SQL.identifier).joined(separator: ", ")) FROM \(SQL.identifier(mapping))")
        while try statement.step() {
            let values = statement.values
            guard let b = values[0].int64Value, let rel = values[1].int64Value, base.contains(b), related.contains(rel) else { continue }
            try body(.row(table: mapping, SourceRow(columns: columns, values: values.map { SourceValue($0, isGeometry: false) })))
        }
    }
}
