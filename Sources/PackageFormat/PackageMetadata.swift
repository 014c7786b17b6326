import Foundation
import Geodatabase
import SQLite

/// Our own tables in data.gpkg (prefix `pkgbuild_`) that say what the package is: its
/// replica and source state (the authority; manifest.json only describes), and how each
/// layer was cut, which sync needs (clipped layers sync attributes only, reprojected ones
/// transform edits back).
///
/// ```sql
/// CREATE TABLE pkgbuild_package (key TEXT NOT NULL PRIMARY KEY, value TEXT)
///   -- format_version, replica_id, source, extraction_generation, sync_generation,
///   -- area_wkt, area_crs, created, sync_records; sync adds pending_sync_id, pending_position,
///   -- last_sync_id, last_sync_at
/// CREATE TABLE pkgbuild_layers (table_name TEXT NOT NULL PRIMARY KEY, source_crs TEXT,
///   package_crs TEXT, clipped INTEGER NOT NULL, filter TEXT, reprojected_from TEXT,
///   schema_only INTEGER NOT NULL, spatial INTEGER NOT NULL, related_rows INTEGER NOT NULL,
///   related_only INTEGER NOT NULL DEFAULT 0)
/// ```
/// `related_only` (absent from packages built before it) is 1 for a table that holds only the
/// rows related to rows chosen by area, even when there were none.
public enum PackageMetadata {
    /// The `pkgbuild_package` key saying every sync of this package records its id at the
    /// source (so the source can tell a stale copy or a restored backup); packages built and
    /// synced before that lack it until their next sync.
    public static let syncRecordsKey = "sync_records"
    public static let syncRecordsValue = "every-sync"

    static let ddl = [
        "CREATE TABLE IF NOT EXISTS pkgbuild_package (key TEXT NOT NULL PRIMARY KEY, value TEXT)",
        """
        CREATE TABLE IF NOT EXISTS pkgbuild_layers (table_name TEXT NOT NULL PRIMARY KEY, source_crs TEXT,
          package_crs TEXT, clipped INTEGER NOT NULL, filter TEXT, reprojected_from TEXT,
          schema_only INTEGER NOT NULL, spatial INTEGER NOT NULL, related_rows INTEGER NOT NULL,
          related_only INTEGER NOT NULL DEFAULT 0)
        """,
    ]

    /// One layer's row of `pkgbuild_layers`.
    public struct LayerRecord: Sendable, Hashable {
        public var name: String
        public var sourceCRS: String?
        public var packageCRS: String?
        public var cut: LayerCut
        public init(name: String, sourceCRS: String?, packageCRS: String?, cut: LayerCut) {
            self.name = name
            self.sourceCRS = sourceCRS
            self.packageCRS = packageCRS
            self.cut = cut
        }
    }

    /// Writes both tables (in the caller's transaction).
    public static func write(to connection: Connection, values: [String: String?], layers: [LayerRecord]) throws {
        for statement in ddl { try connection.execute(statement) }
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try connection.execute("INSERT OR REPLACE INTO pkgbuild_package (key, value) VALUES (?, ?)",
                                   [.text(key), value.map { .text($0) } ?? .null])
        }
        for layer in layers {
            let cut = layer.cut
            try connection.execute("""
                INSERT OR REPLACE INTO pkgbuild_layers (table_name, source_crs, package_crs, clipped, filter,
                  reprojected_from, schema_only, spatial, related_rows, related_only) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(layer.name), layer.sourceCRS.map { .text($0) } ?? .null, layer.packageCRS.map { .text($0) } ?? .null,
                      .integer(cut.clipped ? 1 : 0), cut.filter.map { .text($0) } ?? .null,
                      cut.reprojectedFrom.map { .text($0) } ?? .null, .integer(cut.schemaOnly ? 1 : 0),
                      .integer(cut.spatial ? 1 : 0), .integer(Int64(cut.relatedRows)), .integer(cut.relatedOnly ? 1 : 0)])
        }
    }

    /// Sets keys of `pkgbuild_package` (in the caller's transaction); a nil value removes its key.
    static func set(_ values: [String: String?], in connection: Connection) throws {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if let value {
                try connection.execute("INSERT OR REPLACE INTO pkgbuild_package (key, value) VALUES (?, ?)", [.text(key), .text(value)])
            } else {
                try connection.execute("DELETE FROM pkgbuild_package WHERE key = ?", [.text(key)])
            }
        }
    }

    /// The `pkgbuild_package` values of a package, empty when it has none.
    public static func values(in connection: Connection) throws -> [String: String] {
        guard try tableExists("pkgbuild_package", in: connection) else { return [:] }
        var result: [String: String] = [:]
        for row in try connection.query("SELECT key, value FROM pkgbuild_package") {
            if let k = row[0].stringValue, let v = row[1].stringValue { result[k] = v }
        }
        return result
    }

    /// How `create` cut each layer, from `pkgbuild_layers`, by table name as stored; empty
    /// when the package has no such table.
    public static func layerCuts(in connection: Connection) throws -> [String: LayerCut] {
        guard try tableExists("pkgbuild_layers", in: connection) else { return [:] }
        var cuts: [String: LayerCut] = [:]
        // Packages built before `related_only` was recorded lack the column: their related-only
        // tables are known by the related rows they took.
        let relatedOnly = try connection.scalar("SELECT 1 FROM pragma_table_info('pkgbuild_layers') WHERE name = 'related_only'") != nil
        for row in try connection.query("""
            SELECT table_name, clipped, filter, reprojected_from, schema_only, spatial, related_rows, \(relatedOnly ? "related_only" : "0")
            FROM pkgbuild_layers
            """) {
            guard let name = row[0].stringValue else { continue }
            cuts[name] = LayerCut(clipped: row[1].int64Value == 1, filter: row[2].stringValue, reprojectedFrom: row[3].stringValue,
                                  schemaOnly: row[4].int64Value == 1, spatial: row[5].int64Value == 1,
                                  relatedRows: Int(row[6].int64Value ?? 0), relatedOnly: row[7].int64Value == 1)
        }
        return cuts
    }
}
