/// The schema `pkgbuild source enable` adds to a PostgreSQL database: the tables change
/// tracking and the replica registry keep, all in a schema of their own, `pkgbuild`, shared by
/// every tracked schema of the database (tables are named with their schema).
///
/// ```sql
/// -- One row a setting: the layout version, the log position pruned through
/// -- (`pruned_before`: every change of a transaction below it was deleted; there from the
/// -- start, as 0, so that a prune and a registration always meet on its row lock: LogPruning).
/// CREATE TABLE pkgbuild.settings (key text PRIMARY KEY, value text NOT NULL);
/// -- Which tables are tracked, and by which columns (an integer primary key the database
/// -- numbers, a uuid global id).
/// CREATE TABLE pkgbuild.tables (table_schema text, table_name text, key_column text NOT NULL,
///   globalid_column text NOT NULL, enabled_at timestamptz NOT NULL DEFAULT now(),
///   PRIMARY KEY (table_schema, table_name));
/// -- The change log, appended to by the tables' triggers whoever writes: one row per row
/// -- changed, with the writing transaction's id. Not in commit order: a download takes the
/// -- rows whose transaction was not visible in the package's snapshot and is visible in its
/// -- own (see ChangeCursor).
/// CREATE TABLE pkgbuild.changes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
///   txid xid8 NOT NULL DEFAULT pg_current_xact_id(), table_schema text NOT NULL,
///   table_name text NOT NULL, globalid uuid NOT NULL,
///   operation text NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
///   changed_columns text[],          -- an update's columns whose value changed
///   replica_id text, sync_id text,   -- set by a sync's upload (the apply context)
///   changed_at timestamptz NOT NULL DEFAULT clock_timestamp());
/// CREATE INDEX ON pkgbuild.changes (txid);
/// -- The replica registry, as a GeoPackage source keeps it (generations are snapshot xmins,
/// -- see ChangeCursor).
/// CREATE TABLE pkgbuild.replicas (replica_id text PRIMARY KEY, source_schema text NOT NULL,
///   name text, state text NOT NULL CHECK (state IN ('pending', 'active')),
///   extraction_generation bigint NOT NULL, sync_generation bigint NOT NULL, area_wkt text,
///   area_crs text, layers text NOT NULL DEFAULT '[]', options text NOT NULL DEFAULT '{}',
///   created_at timestamptz NOT NULL DEFAULT now(), last_sync_at timestamptz, last_sync_id text);
/// CREATE TABLE pkgbuild.replica_syncs (sync_id text PRIMARY KEY, replica_id text NOT NULL,
///   generation bigint NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
/// -- Retirements and refusals carry their replica's schema too: a registry opened for one
/// -- schema lists only its own (ReplicaRegistry).
/// CREATE TABLE pkgbuild.retired_replicas (replica_id text PRIMARY KEY, source_schema text NOT NULL,
///   name text, area_wkt text, area_crs text, layers text, options text,
///   retired_at timestamptz NOT NULL DEFAULT now(), retired_by text NOT NULL, successor_id text);
/// CREATE TABLE pkgbuild.sync_refusals (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
///   replica_id text NOT NULL, source_schema text NOT NULL, sync_id text, reason text NOT NULL,
///   message text NOT NULL, refused_at timestamptz NOT NULL DEFAULT now());
/// -- The conflicts each applied sync settled (ConflictStore's columns).
/// CREATE TABLE pkgbuild.conflicts (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
///   sync_id text NOT NULL, table_name text NOT NULL, globalid text NOT NULL, column_name text,
///   kind text NOT NULL, base_value text, package_value text, source_value text, resolution text,
///   resolved_by text, message text, other_rows text, decision text, status text NOT NULL,
///   recorded_at timestamptz NOT NULL DEFAULT now());
/// -- Key-based relationships declared by `source relate`.
/// CREATE TABLE pkgbuild.relationships (name text PRIMARY KEY, table_schema text NOT NULL,
///   origin_table text NOT NULL, origin_key text NOT NULL, destination_table text NOT NULL,
///   destination_key text NOT NULL, cardinality text NOT NULL
///   CHECK (cardinality IN ('one-to-one', 'one-to-many', 'many-to-many')),
///   created_at timestamptz NOT NULL DEFAULT now());
/// ```
///
/// Timestamps are written as text in UTC with microseconds where the seam carries them
/// (`to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`).
import PostgreSQL

enum TrackingSchema {
    static let name = "pkgbuild"
    /// Bumped when the layout changes; `enable` and `refreshTracking` bring older ones up.
    static let version = "1"

    static func table(_ name: String) -> String { PostgreSQLQuoting.qualified(Self.name, name) }

    static let settings = table("settings")
    static let tables = table("tables")
    static let changes = table("changes")
    static let replicas = table("replicas")
    static let replicaSyncs = table("replica_syncs")
    static let retiredReplicas = table("retired_replicas")
    static let syncRefusals = table("sync_refusals")
    static let conflicts = table("conflicts")
    static let relationships = table("relationships")

    /// The statements that create the schema; each may run again and changes nothing then.
    static let ddl: [String] = [
        "CREATE SCHEMA IF NOT EXISTS pkgbuild",
        "CREATE TABLE IF NOT EXISTS pkgbuild.settings (key text PRIMARY KEY, value text NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS pkgbuild.tables (table_schema text, table_name text, \
        key_column text NOT NULL, globalid_column text NOT NULL, enabled_at timestamptz NOT NULL DEFAULT now(), \
        PRIMARY KEY (table_schema, table_name))
        """,
        """
        CREATE TABLE IF NOT EXISTS pkgbuild.changes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, \
        txid xid8 NOT NULL DEFAULT pg_current_xact_id(), table_schema text NOT NULL, table_name text NOT NULL, \
        globalid uuid NOT NULL, operation text NOT NULL CHECK (operation IN ('insert', 'update', 'delete')), \
        changed_columns text[], replica_id text, sync_id text, changed_at timestamptz NOT NULL DEFAULT clock_timestamp())
        """,
        "CREATE INDEX IF NOT EXISTS changes_txid ON pkgbuild.changes (txid)",
        """
        CREATE TABLE IF NOT EXISTS pkgbuild.replicas (replica_id text PRIMARY KEY, source_schema text NOT NULL, \
        name text, state text NOT NULL CHECK (state IN ('pending', 'active')), \
        extraction_generation bigint NOT NULL, sync_generation bigint NOT NULL, area_wkt text, area_crs text, \
        layers text NOT NULL DEFAULT '[]', options text NOT NULL DEFAULT '{}', \
        created_at timestamptz NOT NULL DEFAULT now(), last_sync_at timestamptz, last_sync_id text)
        """,
        """
        CREATE TABLE IF NOT EXISTS pkgbuild.replica_syncs (sync_id text PRIMARY KEY, replica_id text NOT NULL, \
        generation bigint NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
        """,
        """
        CREATE TABLE IF NOT EXISTS pkgbuild.retired_replicas (replica_id text PRIMARY KEY, \
        source_schema text NOT NULL, name text, area_wkt text, area_crs text, layers text, options text, retired_at timestamptz NOT NULL DEFAULT now(), \
        retired_by text NOT NULL, successor_id text)
        """,
        """
        CREATE TABLE IF NOT EXISTS pkgbuild.sync_refusals (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, \
        replica_id text NOT NULL, source_schema text NOT NULL, sync_id text, reason text NOT NULL, \
        message text NOT NULL, refused_at timestamptz NOT NULL DEFAULT now())
        """,
        """
        CREATE TABLE IF NOT EXISTS pkgbuild.conflicts (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, \
        sync_id text NOT NULL, table_name text NOT NULL, globalid text NOT NULL, column_name text, \
        kind text NOT NULL, base_value text, package_value text, source_value text, resolution text, \
        resolved_by text, message text, other_rows text, decision text, status text NOT NULL, \
        recorded_at timestamptz NOT NULL DEFAULT now())
        """,
        "CREATE INDEX IF NOT EXISTS conflicts_sync ON pkgbuild.conflicts (sync_id)",
        """
        CREATE TABLE IF NOT EXISTS pkgbuild.relationships (name text PRIMARY KEY, table_schema text NOT NULL, \
        origin_table text NOT NULL, origin_key text NOT NULL, destination_table text NOT NULL, \
        destination_key text NOT NULL, cardinality text NOT NULL \
        CHECK (cardinality IN ('one-to-one', 'one-to-many', 'many-to-many')), created_at timestamptz NOT NULL DEFAULT now())
        """,
        "INSERT INTO pkgbuild.settings (key, value) VALUES ('version', '\(version)') ON CONFLICT (key) DO NOTHING",
        "INSERT INTO pkgbuild.settings (key, value) VALUES ('pruned_before', '0') ON CONFLICT (key) DO NOTHING",
    ]

    /// A timestamp column as the seam carries it: text in UTC, microseconds kept.
    static func utcText(_ column: String) -> String {
        "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
    }
}
