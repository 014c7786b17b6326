/// How our `pkgbuild_*` tables are declared in `gpkg_extensions`, so that GDAL and QGIS see an
/// ordinary GeoPackage.
///
/// - The extension `pkgbuild_sync` is registered on our own tables only (one row per
///   `pkgbuild_*` table, no column, scope `write-only`). GDAL 3.6 warns about any extension
///   it does not know on a user table it opens ("Update of that layer are strongly
///   discouraged"), in update mode for `write-only` and always for `read-write`; our triggers
///   need nothing from other writers, so a user table carries no row of ours. Rows left on
///   user tables by earlier versions are removed.
/// - GDAL lists every table not prefixed `gpkg_`, `rtree_` or `sqlite_` as a layer when
///   `gpkg_contents` has no `attributes` row and `gpkg_extensions` no `gdal_aspatial` row
///   (its `LIST_ALL_TABLES=AUTO`), so a file without attribute tables would show a dozen
///   `pkgbuild_*` tables. The `gdal_aspatial` row (no table, no column) stops that: always in
///   a package, and in a source only when it would hide no user table or view that
///   `gpkg_contents` does not register (those the user sees as layers today).
///
/// Writes nothing when all of that is already so, so read-only files stay usable.
import SQLite

public enum OwnTables {
    /// Which kind of file is being registered: only a source may hold unregistered user tables
    /// a `gdal_aspatial` row must not hide.
    public enum Side: Sendable {
        case package, source
    }

    static let aspatialExtension = "gdal_aspatial"
    static let aspatialDefinition = "http://gdal.org/geopackage_aspatial.html"

    /// Brings `gpkg_extensions` to the registration described above, in the caller's
    /// transaction (or a transaction of its own).
    /// - Throws: `SQLiteError` (a read-only file that needs the change).
    public static func register(in connection: Connection, side: Side) throws {
        let hide = try wantsAspatialRow(connection, side: side)
        guard try needsChange(connection, hide: hide) else { return }
        try connection.withTransaction(.immediate) {
            try connection.execute(SyncSchema.extensionsDDL)
            try connection.execute("DELETE FROM gpkg_extensions WHERE \(strayRow)")
            try connection.execute("""
                INSERT INTO gpkg_extensions (table_name, column_name, extension_name, definition, scope)
                SELECT name, NULL, \(ourExtension), ?, 'write-only' FROM sqlite_master m WHERE \(missingRow) ORDER BY name
                """, [.text(SyncSchema.extensionDefinition)])
            if hide {
                try connection.execute("""
                    INSERT INTO gpkg_extensions (table_name, column_name, extension_name, definition, scope)
                    SELECT NULL, NULL, ?1, ?2, 'read-write' WHERE NOT EXISTS (\(aspatialRow))
                    """, [.text(aspatialExtension), .text(aspatialDefinition)])
            }
        }
    }

    private static let ourExtension = SQL.literal(SyncSchema.extensionName)

    /// A row of ours on anything but one of our tables (a user table, a column, the whole
    /// file, a table since dropped). GLOB, not LIKE: `_` is no wildcard there, and our names
    /// are lower case.
    private static let strayRow = """
        extension_name = \(ourExtension) AND (table_name IS NULL OR table_name NOT GLOB 'pkgbuild_*' \
        OR column_name IS NOT NULL OR table_name NOT IN (SELECT name FROM sqlite_master WHERE type = 'table'))
        """

    /// For a row `m` of `sqlite_master`: one of our tables without its registration row.
    private static let missingRow = """
        m.type = 'table' AND m.name GLOB 'pkgbuild_*' AND NOT EXISTS (SELECT 1 FROM gpkg_extensions e \
        WHERE e.extension_name = \(ourExtension) AND e.table_name = m.name AND e.column_name IS NULL)
        """

    private static let aspatialRow = """
        SELECT 1 FROM gpkg_extensions WHERE extension_name = 'gdal_aspatial' AND table_name IS NULL AND column_name IS NULL
        """

    private static func needsChange(_ connection: Connection, hide: Bool) throws -> Bool {
        guard try tableExists("gpkg_extensions", in: connection) else { return true }
        let stray = try connection.scalar("SELECT 1 FROM gpkg_extensions WHERE \(strayRow) LIMIT 1") != nil
        let missing = try connection.scalar("SELECT 1 FROM sqlite_master m WHERE \(missingRow) LIMIT 1") != nil
        let aspatialMissing = try hide && connection.scalar(aspatialRow) == nil
        return stray || missing || aspatialMissing
    }

    /// A package always hides our tables; a source only when the row would hide nothing else:
    /// no table or view GDAL lists today besides ours and `gpkg_contents`' (GDAL's own test,
    /// LIKE and all).
    private static func wantsAspatialRow(_ connection: Connection, side: Side) throws -> Bool {
        switch side {
        case .package:
            return true
        case .source:
            return try connection.scalar("""
                SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'gpkg_%' \
                AND name NOT LIKE 'vgpkg_%' AND name NOT LIKE 'rtree_%' AND name NOT LIKE 'sqlite_%' \
                AND name NOT GLOB 'pkgbuild_*' AND lower(name) NOT IN (SELECT lower(table_name) FROM gpkg_contents) LIMIT 1
                """) == nil
        }
    }
}
