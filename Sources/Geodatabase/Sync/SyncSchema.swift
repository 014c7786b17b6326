/// The tables this project adds to a GeoPackage to make it syncable, all named `pkgbuild_*`,
/// and registered in `gpkg_extensions` as the community extension `pkgbuild_sync` on those
/// tables only, never on a user table (see ``OwnTables``: GDAL warns about an extension it
/// does not know on any table it opens for writing).
///
/// In both a source geodatabase and a package (`data.gpkg`):
///
/// ```sql
/// -- Which tables are tracked, and by which columns. key_column is the INTEGER PRIMARY KEY
/// -- (or 'rowid' for a Related Tables mapping table without one).
/// CREATE TABLE pkgbuild_tables (table_name TEXT NOT NULL PRIMARY KEY, key_column TEXT NOT NULL,
///   globalid_column TEXT NOT NULL, enabled_at TEXT NOT NULL DEFAULT (strftime(...'now')));
/// -- At most one row, present only inside a sync's own transaction (see ApplyContext).
/// CREATE TABLE pkgbuild_apply_context (id INTEGER PRIMARY KEY CHECK (id = 1),
///   replica_id TEXT, sync_id TEXT);
/// -- Key-based relationships (origin.key -> destination.foreign key).
/// CREATE TABLE pkgbuild_relationships (name TEXT NOT NULL PRIMARY KEY, origin_table TEXT NOT NULL,
///   origin_key TEXT NOT NULL, destination_table TEXT NOT NULL, destination_key TEXT NOT NULL,
///   cardinality TEXT NOT NULL CHECK (cardinality IN ('one-to-one','one-to-many','many-to-many')),
///   created_at TEXT NOT NULL DEFAULT (...));
/// -- The rows an INSERT may replace, staged by a BEFORE INSERT trigger and confirmed by the
/// -- AFTER INSERT one (see ReplaceStaging); what an ignored INSERT leaves, the next clears.
/// CREATE TABLE pkgbuild_replaced (table_name TEXT NOT NULL, globalid TEXT NOT NULL,
///   provisional INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_name, globalid));
/// ```
///
/// In a source only (see `SourceGeodatabase`):
///
/// ```sql
/// -- One row per row ever changed since enable: its LAST change. generation is the source's
/// -- change sequence number (AUTOINCREMENT, never reused); INSERT OR REPLACE moves a row's
/// -- entry to a new generation on each change. Deletes stay as tombstones.
/// CREATE TABLE pkgbuild_changes (generation INTEGER PRIMARY KEY AUTOINCREMENT,
///   table_name TEXT NOT NULL, globalid TEXT NOT NULL,
///   operation TEXT NOT NULL CHECK (operation = 'insert' OR operation = 'update' OR operation = 'delete'),
///   replica_id TEXT, sync_id TEXT,       -- from pkgbuild_apply_context: which sync made it
///   changed_at TEXT NOT NULL DEFAULT (...), UNIQUE (table_name, globalid));
/// CREATE TABLE pkgbuild_replicas (replica_id TEXT NOT NULL PRIMARY KEY, name TEXT,
///   state TEXT NOT NULL CHECK (state IN ('pending','active')),
///   extraction_generation INTEGER NOT NULL, sync_generation INTEGER NOT NULL,
///   area_wkt TEXT, area_crs TEXT, layers TEXT NOT NULL DEFAULT '[]',  -- JSON array of names
///   options TEXT NOT NULL DEFAULT '{}',                                -- JSON object
///   created_at TEXT NOT NULL DEFAULT (...), last_sync_at TEXT, last_sync_id TEXT);
/// CREATE TABLE pkgbuild_replica_syncs (sync_id TEXT NOT NULL PRIMARY KEY,
///   replica_id TEXT NOT NULL, generation INTEGER NOT NULL, applied_at TEXT NOT NULL DEFAULT (...));
/// -- Replicas taken out of pkgbuild_replicas (their sync records stay): when, by what, and the
/// -- replica that took over (sync --reattach), so a stranded package is told what happened.
/// CREATE TABLE pkgbuild_retired_replicas (replica_id TEXT NOT NULL PRIMARY KEY, name TEXT,
///   area_wkt TEXT, area_crs TEXT, layers TEXT, options TEXT, retired_at TEXT NOT NULL DEFAULT (...),
///   retired_by TEXT NOT NULL, successor_id TEXT);
/// -- Syncs refused because the package is a stale copy or the source was restored (see
/// -- ReplicaStanding): the one write a refused sync makes, so `source status` can show it.
/// CREATE TABLE pkgbuild_sync_refusals (id INTEGER PRIMARY KEY AUTOINCREMENT, replica_id TEXT NOT NULL,
///   sync_id TEXT, reason TEXT NOT NULL, message TEXT NOT NULL, refused_at TEXT NOT NULL DEFAULT (...));
/// ```
///
/// In a package only (see `PackageChangeTracking`):
///
/// ```sql
/// -- One row per locally changed row: its NET change against the base.
/// CREATE TABLE pkgbuild_edits (position INTEGER PRIMARY KEY AUTOINCREMENT,
///   table_name TEXT NOT NULL, globalid TEXT NOT NULL,
///   operation TEXT NOT NULL CHECK (operation = 'insert' OR operation = 'update' OR operation = 'delete'),
///   edited_at TEXT NOT NULL DEFAULT (...), UNIQUE (table_name, globalid));
/// -- Per tracked table T: the base row (as extracted or last synced) of each changed row,
/// -- saved by the trigger at the row's first change. Same columns and declared types as T,
/// -- no constraints; the global id column is its primary key.
/// CREATE TABLE "pkgbuild_base_T" (...);
/// ```
import SQLite

/// Names and DDL of the `pkgbuild_*` tables (see the file's documentation for the schema).
public enum SyncSchema {
    /// The `gpkg_extensions.extension_name` of our rows.
    public static let extensionName = "pkgbuild_sync"
    static let extensionDefinition = "pkgbuild sync: this table belongs to change tracking and replica "
        + "state; its triggers use core SQL only and need nothing from other writers"

    public static let tablesTable = "pkgbuild_tables"
    public static let applyContextTable = "pkgbuild_apply_context"
    public static let relationshipsTable = "pkgbuild_relationships"
    public static let changesTable = "pkgbuild_changes"
    public static let replicasTable = "pkgbuild_replicas"
    public static let replicaSyncsTable = "pkgbuild_replica_syncs"
    public static let retiredReplicasTable = "pkgbuild_retired_replicas"
    public static let syncRefusalsTable = "pkgbuild_sync_refusals"
    public static let editsTable = "pkgbuild_edits"

    /// The base-row table of a tracked package table.
    public static func baseTable(for table: String) -> String { "pkgbuild_base_" + table }

    /// The in-flight table of a tracked package table: while a sync is pending (recorded in
    /// the package, not finished), the first later edit of a row that sync uploads saves the
    /// row as it was (what the upload sent) and its edit's operation then, so a run that
    /// resumes the sync after the source committed reconciles the newer edit against what its
    /// own upload wrote, not against the older base.
    public static func inFlightTable(for table: String) -> String { "pkgbuild_inflight_" + table }
    public static let inFlightOperationColumn = "pkgbuild_operation"

    static let now = "(strftime('%Y-%m-%dT%H:%M:%fZ','now'))"

    /// The table `source relate` declares key-based relationships in, on either side.
    static let relationshipsDDL = """
        CREATE TABLE IF NOT EXISTS pkgbuild_relationships (name TEXT NOT NULL PRIMARY KEY, \
        origin_table TEXT NOT NULL, origin_key TEXT NOT NULL, destination_table TEXT NOT NULL, \
        destination_key TEXT NOT NULL, cardinality TEXT NOT NULL \
        CHECK (cardinality IN ('one-to-one', 'one-to-many', 'many-to-many')), \
        created_at TEXT NOT NULL DEFAULT \(now))
        """

    static let commonDDL = [
        """
        CREATE TABLE IF NOT EXISTS pkgbuild_tables (table_name TEXT NOT NULL PRIMARY KEY, \
        key_column TEXT NOT NULL, globalid_column TEXT NOT NULL, enabled_at TEXT NOT NULL DEFAULT \(now))
        """,
        """
        CREATE TABLE IF NOT EXISTS pkgbuild_apply_context (id INTEGER PRIMARY KEY CHECK (id = 1), \
        replica_id TEXT, sync_id TEXT)
        """,
        relationshipsDDL,
        ReplaceStaging.ddl,
    ]

    static let sourceDDL = [
        """
        CREATE TABLE IF NOT EXISTS pkgbuild_changes (generation INTEGER PRIMARY KEY AUTOINCREMENT, \
        table_name TEXT NOT NULL, globalid TEXT NOT NULL, \
        operation TEXT NOT NULL \(OperationCheck.sql), \
        replica_id TEXT, sync_id TEXT, changed_at TEXT NOT NULL DEFAULT \(now), UNIQUE (table_name, globalid))
        """,
        """
        CREATE TABLE IF NOT EXISTS pkgbuild_replicas (replica_id TEXT NOT NULL PRIMARY KEY, name TEXT, \
        state TEXT NOT NULL CHECK (state IN ('pending', 'active')), \
        extraction_generation INTEGER NOT NULL, sync_generation INTEGER NOT NULL, \
        area_wkt TEXT, area_crs TEXT, layers TEXT NOT NULL DEFAULT '[]', options TEXT NOT NULL DEFAULT '{}', \
        created_at TEXT NOT NULL DEFAULT \(now), last_sync_at TEXT, last_sync_id TEXT)
        """,
        """
        CREATE TABLE IF NOT EXISTS pkgbuild_replica_syncs (sync_id TEXT NOT NULL PRIMARY KEY, \
        replica_id TEXT NOT NULL, generation INTEGER NOT NULL, applied_at TEXT NOT NULL DEFAULT \(now))
        """,
    ] + registryDDL

    /// Tables of the replica registry added after the first release: created by `enable` and,
    /// for sources enabled before, by the first write that needs them.
    static let registryDDL = [
        """
        CREATE TABLE IF NOT EXISTS pkgbuild_retired_replicas (replica_id TEXT NOT NULL PRIMARY KEY, name TEXT, \
        area_wkt TEXT, area_crs TEXT, layers TEXT, options TEXT, retired_at TEXT NOT NULL DEFAULT \(now), \
        retired_by TEXT NOT NULL, successor_id TEXT)
        """,
        """
        CREATE TABLE IF NOT EXISTS pkgbuild_sync_refusals (id INTEGER PRIMARY KEY AUTOINCREMENT, \
        replica_id TEXT NOT NULL, sync_id TEXT, reason TEXT NOT NULL, message TEXT NOT NULL, \
        refused_at TEXT NOT NULL DEFAULT \(now))
        """,
    ]

    static let packageDDL = [
        // The package's key/value state (written by create and sync): the edit triggers read
        // the pending sync's position from it.
        "CREATE TABLE IF NOT EXISTS pkgbuild_package (key TEXT NOT NULL PRIMARY KEY, value TEXT)",
        """
        CREATE TABLE IF NOT EXISTS pkgbuild_edits (position INTEGER PRIMARY KEY AUTOINCREMENT, \
        table_name TEXT NOT NULL, globalid TEXT NOT NULL, \
        operation TEXT NOT NULL \(OperationCheck.sql), \
        edited_at TEXT NOT NULL DEFAULT \(now), UNIQUE (table_name, globalid))
        """,
    ]

    /// The spec's DDL for `gpkg_extensions`, for the rare GeoPackage that lacks the table.
    static let extensionsDDL = """
        CREATE TABLE IF NOT EXISTS gpkg_extensions (table_name TEXT, column_name TEXT, \
        extension_name TEXT NOT NULL, definition TEXT NOT NULL, scope TEXT NOT NULL, \
        CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name))
        """
}
