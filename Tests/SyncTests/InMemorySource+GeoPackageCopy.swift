/// An in-memory source filled as a copy of a sync-enabled GeoPackage source, read through the
/// GeoPackage driver (tables, rows, coordinate systems) and, for what the protocol does not
/// list (every replica, the generation, the constraints), through the GeoPackage itself: a
/// package built from that GeoPackage is then valid against the copy (same replica, same
/// generation, same rows by global id). What `create` reads besides (layers, relationships,
/// metadata) is recorded through the GeoPackage driver's feature source.
import Geodatabase
import GeoPackageSource
import SQLite
import SourceDrivers

extension InMemorySource {
    /// A copy of the GeoPackage source at `path` named `memory:NAME`.
    static func copy(ofGeoPackage path: String, name: String) throws -> InMemorySource {
        let memory = InMemorySource(name: name)
        let driven = try GeoPackageSourceDriver().openSyncSource(path, options: SourceOpenOptions(readOnly: true))
        let geoPackage = try GeoPackage(path: path, readOnly: true)
        let connection = geoPackage.connection
        for table in try driven.trackedTables() {
            var copied = InMemoryTable(shape: table, uniqueColumnSets: try uniqueColumnSets(of: table.name, in: connection),
                                       notNullColumns: try notNullColumns(of: table, in: connection))
            let shape = TableShape(name: table.name, keyColumn: table.keyColumn, globalIDColumn: table.globalIDColumn,
                                   columns: table.columns.map(\.name), geometryColumn: table.geometry?.name)
            let rows = try driven.rowsByGlobalID(in: shape)
            while let row = try rows.next() {
                guard let globalID = row[table.globalIDColumn]?.stringValue else { continue }
                copied.rows[globalID] = Dictionary(uniqueKeysWithValues: zip(row.columns, row.values))
                if case .integer(let key)? = row[table.keyColumn] { copied.nextKey = max(copied.nextKey, key + 1) }
            }
            memory.state.tables.append(copied)
            if let srsID = table.geometry?.srsID { memory.state.crs[srsID] = try driven.spatialReferenceSystem(id: srsID) }
        }
        let geodatabase = SourceGeodatabase(connection: connection)
        memory.state.generation = try geodatabase.generation()
        memory.state.continuesGeoPackageLog = true
        memory.state.registry.replicas = try geodatabase.replicas()
        for retired in try geodatabase.retiredReplicas() { memory.state.registry.retired[retired.id] = retired }
        for row in try connection.query("SELECT sync_id, replica_id, generation FROM pkgbuild_replica_syncs") {
            memory.state.registry.syncs[row[0].stringValue ?? ""] = (row[1].stringValue ?? "", row[2].int64Value ?? 0)
        }
        memory.state.featureRecords = try featureRecords(ofGeoPackage: path)
        return memory
    }

    /// The layers, relationships and metadata items, as the GeoPackage driver's feature source
    /// gives them (the metadata for every layer, every mapping link kept).
    private static func featureRecords(ofGeoPackage path: String) throws -> InMemoryFeatureRecords {
        let source = try GeoPackageSourceDriver().openFeatureSource(path)
        var records = InMemoryFeatureRecords(layers: try source.layers(), relationships: try source.relationships())
        var keys: [SQLName: Set<Int64>] = [:]
        for layer in records.layers {
            guard let primaryKey = layer.schema.primaryKey else { continue }
            try source.forEachRow(RowQuery(layer: layer.name, columns: [primaryKey], selection: .all)) { row in
                if case .integer(let key)? = row.values.first { keys[SQLName(layer.name), default: []].insert(key) }
            }
        }
        try source.forEachMetadataItem(tables: records.layers.map(\.name), keptKeys: { keys[SQLName($0)] ?? [] }) {
            records.metadata.append($0)
        }
        return records
    }

    /// The table's UNIQUE indexes (its primary key aside: the source numbers it itself).
    private static func uniqueColumnSets(of table: String, in connection: Connection) throws -> [[String]] {
        try connection.query("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin <> 'pk'", [.text(table)])
            .compactMap { $0[0].stringValue }
            .map { index in
                try connection.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(index)]).compactMap { $0[0].stringValue }
            }
    }

    private static func notNullColumns(of table: SourceTable, in connection: Connection) throws -> Set<String> {
        Set(try connection.query("SELECT name FROM pragma_table_info(?) WHERE \"notnull\" = 1 AND pk = 0", [.text(table.name)])
            .compactMap { $0[0].stringValue })
    }
}
