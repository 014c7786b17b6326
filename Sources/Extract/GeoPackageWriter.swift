import Foundation
import Geodatabase
import Geometry
import SQLite

/// A table to create in data.gpkg, described as the source has it.
public struct PackageTable: Sendable, Hashable {
    public var name: String
    /// `features` or `attributes`.
    public var dataType: String
    public var identifier: String?
    public var description: String?
    /// The source's `CREATE TABLE` statement, verbatim, so column types, NOT NULL, defaults,
    /// UNIQUE and the globalid column come across as they are.
    public var createSQL: String
    /// Column names in table order.
    public var columns: [String]
    /// The integer primary key column (`fid`).
    public var primaryKey: String
    /// Its row of gpkg_geometry_columns, with the type as the package declares it
    /// (`MULTIPOLYGON` for a clipped `POLYGON` layer).
    public var geometry: GeometryColumnInfo?

    public init(name: String, dataType: String, identifier: String?, description: String?,
                createSQL: String, columns: [String], primaryKey: String, geometry: GeometryColumnInfo?) {
        self.name = name
        self.dataType = dataType
        self.identifier = identifier
        self.description = description
        self.createSQL = createSQL
        self.columns = columns
        self.primaryKey = primaryKey
        self.geometry = geometry
    }

    /// The R-tree's name (`rtree_<table>_<column>`), for feature tables.
    public var rtreeName: String? { geometry.map { GeometryColumnInfo.rtreeName(table: name, column: $0.name) } }
}

/// Writes a fresh GeoPackage 1.3 (data.gpkg): the core `gpkg_*` tables as GDAL makes them
/// (GDAL's validator compares their structure column by column), tables copied from the
/// source, one R-tree per feature table with the GeoPackage 1.3 triggers, and contents
/// extents equal to the written data's extents.
///
/// Tables are created with ``createTable(_:)``; rows go in with ``insert(into:_:envelope:)``,
/// in any order across tables (related rows are appended after the area's rows). The R-tree
/// is packed alongside (``RTreeLoader``) and completed, with its triggers, by ``finish()``,
/// so the bulk load neither inserts into it row by row nor calls `ST_*` functions per row.
///
/// - Important: Not thread-safe; one writer thread owns it.
public final class GeoPackageWriter {
    public let path: String
    let connection: Connection
    private var tables: [String: TableState] = [:]
    private var order: [String] = []
    /// The per-row statements of `execute` (copied constraints, links), compiled once.
    private let statements: StatementCache

    private final class TableState {
        let table: PackageTable
        let insert: Statement
        let rtree: RTreeLoader?
        var extent: Envelope?
        var count = 0
        init(table: PackageTable, insert: Statement, rtree: RTreeLoader?) {
            self.table = table
            self.insert = insert
            self.rtree = rtree
        }
    }

    /// The page cache of the load, in KiB.
    static let cacheKiB = 2048

    /// Creates the file (which must not exist) with the core tables and the three required
    /// spatial reference systems, and opens one transaction for the whole load.
    public init(path: String) throws {
        self.path = path
        do {
            connection = try Connection(path: path, mode: .create)
            statements = StatementCache(connection)
            // A staging file is discarded on any failure, so the load needs no rollback journal.
            // The page cache is bounded explicitly: pages beyond it spill to the file, so the
            // load's memory does not grow with the package.
            try connection.execute("""
                PRAGMA cache_size = -\(Self.cacheKiB);
                PRAGMA application_id = 1196444487;
                PRAGMA user_version = 10300;
                PRAGMA journal_mode = OFF;
                PRAGMA synchronous = OFF;
                BEGIN;
                """)
            try connection.execute(Self.coreSchema)
        } catch let error as SQLiteError {
            throw ExtractError(.output, "cannot create \(path): \(error)")
        }
    }

    /// Adds a spatial reference system once (a second call with the same id is ignored).
    public func addSpatialReferenceSystem(_ srs: SpatialReferenceInfo) throws {
        try connection.execute("""
            INSERT OR IGNORE INTO gpkg_spatial_ref_sys
                (srs_name, srs_id, organization, organization_coordsys_id, definition, description)
            VALUES (?, ?, ?, ?, ?, ?)
            """, [.text(srs.name), .integer(srs.srsID), .text(srs.organization),
                  .integer(srs.organizationCoordsysID), .text(srs.definition),
                  srs.description.map { .text($0) } ?? .null])
    }

    /// Creates a table like the source's and registers it in gpkg_contents (and, for
    /// features, gpkg_geometry_columns, its R-tree and the R-tree extension row).
    public func createTable(_ table: PackageTable) throws {
        precondition(tables[table.name] == nil, "table \(table.name) created twice")
        try connection.execute(table.createSQL)
        try connection.execute("""
            INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id)
            VALUES (?, ?, ?, ?, ?)
            """, [.text(table.name), .text(table.dataType), .text(table.identifier ?? table.name),
                  .text(table.description ?? ""), table.geometry.map { .integer($0.srsID) } ?? .null])
        var rtree: RTreeLoader?
        if let g = table.geometry, let rtreeName = table.rtreeName {
            try connection.execute("""
                INSERT INTO gpkg_geometry_columns (table_name, column_name, geometry_type_name, srs_id, z, m)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(table.name), .text(g.name), .text(g.geometryTypeName), .integer(g.srsID),
                      .integer(Int64(g.z)), .integer(Int64(g.m))])
            try connection.execute("""
                CREATE VIRTUAL TABLE \(SQL.identifier(rtreeName)) USING rtree(id, minx, maxx, miny, maxy)
                """)
            try connection.execute("""
                INSERT INTO gpkg_extensions (table_name, column_name, extension_name, definition, scope)
                VALUES (?, ?, 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')
                """, [.text(table.name), .text(g.name)])
            rtree = try RTreeLoader(connection: connection, rtree: rtreeName)
        }
        let columns = table.columns.map(SQL.identifier).joined(separator: ", ")
        let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        let insert = try connection.prepare(
            "INSERT INTO \(SQL.identifier(table.name)) (\(columns)) VALUES (\(marks))")
        tables[table.name] = TableState(table: table, insert: insert, rtree: rtree)
        order.append(table.name)
    }

    /// Inserts one row, values in `PackageTable.columns` order (the geometry already encoded
    /// as GeoPackage binary), with its envelope for the R-tree (nil for a NULL or empty
    /// geometry, or an attribute row).
    public func insert(into tableName: String, _ values: [SQLiteValue], envelope: Envelope?) throws {
        guard let state = tables[tableName] else { preconditionFailure("table \(tableName) not created") }
        try state.insert.bind(values)
        while try state.insert.step() {}
        state.insert.reset()
        if let envelope, let rtree = state.rtree {
            try rtree.add(id: connection.lastInsertRowID, envelope)
            if state.extent == nil { state.extent = envelope } else { state.extent!.expand(toInclude: envelope) }
        }
        state.count += 1
    }

    /// Rows written so far and their extent, per table.
    public func summary(of tableName: String) -> (count: Int, extent: Envelope?) {
        guard let state = tables[tableName] else { return (0, nil) }
        return (state.count, state.extent)
    }

    /// Ends the load of every table: contents extents become the written data's extents
    /// (NULL when nothing was written) and the R-tree triggers are created.
    public func finish() throws {
        for name in order {
            guard let state = tables[name] else { continue }
            let e = state.extent
            try connection.execute("""
                UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ?,
                    last_change = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE table_name = ?
                """, [e.map { .real($0.minX) } ?? .null, e.map { .real($0.minY) } ?? .null,
                      e.map { .real($0.maxX) } ?? .null, e.map { .real($0.maxY) } ?? .null, .text(name)])
            try state.rtree?.finish()
            if let g = state.table.geometry, let rtreeName = state.table.rtreeName {
                try connection.execute(Self.rtreeTriggers(table: name, column: g.name,
                                                          primaryKey: state.table.primaryKey, rtree: rtreeName))
            }
        }
        tables = [:]
    }

    /// Runs SQL in the package's transaction (metadata tables of other modules, copies of
    /// constraints and relationships).
    public func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        guard !arguments.isEmpty else { return try connection.execute(sql) }
        let statement = try statements.statement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Whether the package's `table` has a column of that name, in any letter case.
    public func hasColumn(named column: String, in table: String) throws -> Bool {
        try connection.scalar("SELECT 1 FROM pragma_table_info(?) WHERE lower(name) = lower(?)",
                              [.text(table), .text(column)]) != nil
    }

    /// The package's connection, for modules that add their own tables (change tracking,
    /// replica state) in the same transaction before ``commit()``.
    public var database: Connection { connection }

    /// Commits the load and puts the file in its normal journal mode.
    public func commit() throws {
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA journal_mode = DELETE")
    }

    /// The GeoPackage 1.3 R-tree triggers (insert, update1-update4, delete), as GDAL 3.6
    /// writes them: its validator rejects the 1.4 set (update5-update7).
    static func rtreeTriggers(table: String, column: String, primaryKey: String, rtree: String) -> String {
        let t = SQL.identifier(table), c = SQL.identifier(column), i = SQL.identifier(primaryKey)
        let r = SQL.identifier(rtree)
        let name = { (suffix: String) in SQL.identifier("\(rtree)_\(suffix)") }
        let upsert = "INSERT OR REPLACE INTO \(r) VALUES (NEW.\(i),ST_MinX(NEW.\(c)), ST_MaxX(NEW.\(c)),ST_MinY(NEW.\(c)), ST_MaxY(NEW.\(c)));"
        return """
            CREATE TRIGGER \(name("insert")) AFTER INSERT ON \(t) WHEN (new.\(c) NOT NULL AND NOT ST_IsEmpty(NEW.\(c))) BEGIN \(upsert) END;
            CREATE TRIGGER \(name("update1")) AFTER UPDATE OF \(c) ON \(t) WHEN OLD.\(i) = NEW.\(i) AND (NEW.\(c) NOTNULL AND NOT ST_IsEmpty(NEW.\(c))) BEGIN \(upsert) END;
            CREATE TRIGGER \(name("update2")) AFTER UPDATE OF \(c) ON \(t) WHEN OLD.\(i) = NEW.\(i) AND (NEW.\(c) ISNULL OR ST_IsEmpty(NEW.\(c))) BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); END;
            CREATE TRIGGER \(name("update3")) AFTER UPDATE ON \(t) WHEN OLD.\(i) != NEW.\(i) AND (NEW.\(c) NOTNULL AND NOT ST_IsEmpty(NEW.\(c))) BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); \(upsert) END;
            CREATE TRIGGER \(name("update4")) AFTER UPDATE ON \(t) WHEN OLD.\(i) != NEW.\(i) AND (NEW.\(c) ISNULL OR ST_IsEmpty(NEW.\(c))) BEGIN DELETE FROM \(r) WHERE id IN (OLD.\(i), NEW.\(i)); END;
            CREATE TRIGGER \(name("delete")) AFTER DELETE ON \(t) WHEN old.\(c) NOT NULL BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); END;
            """
    }

    /// The core tables, with the exact column declarations GDAL 3.6 writes, and the three
    /// spatial reference systems every GeoPackage must hold.
    static let coreSchema = """
        CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL,srs_id INTEGER NOT NULL PRIMARY KEY,organization TEXT NOT NULL,organization_coordsys_id INTEGER NOT NULL,definition  TEXT NOT NULL,description TEXT);
        CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY,data_type TEXT NOT NULL,identifier TEXT UNIQUE,description TEXT DEFAULT '',last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),min_x DOUBLE, min_y DOUBLE,max_x DOUBLE, max_y DOUBLE,srs_id INTEGER,CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
        CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL,column_name TEXT NOT NULL,geometry_type_name TEXT NOT NULL,srs_id INTEGER NOT NULL,z TINYINT NOT NULL,m TINYINT NOT NULL,CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),CONSTRAINT uk_gc_table_name UNIQUE (table_name),CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
        CREATE TABLE gpkg_extensions (table_name TEXT,column_name TEXT,extension_name TEXT NOT NULL,definition TEXT NOT NULL,scope TEXT NOT NULL,CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
        INSERT INTO gpkg_spatial_ref_sys (srs_name, srs_id, organization, organization_coordsys_id, definition, description) VALUES
            ('Undefined Cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined Cartesian coordinate reference system'),
            ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
            ('WGS 84 geodetic', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]', 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
        """
}
