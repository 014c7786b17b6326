/// The triggers that keep the change log of one tracked table: whoever writes (QGIS,
/// `ogr2ogr`, `psql`, a sync), every insert, update and delete appends a row to
/// `pkgbuild.changes` with the writing transaction's id, the columns an update changed and,
/// for a sync's upload, the replica and sync id the apply context set.
///
/// The functions are generated per table, so that an update's changed columns are found by
/// comparing each column by name (their text forms: exact for every type, json and geometry
/// included, which have no usable `=`). `refreshTracking` regenerates them after columns are
/// added. A BEFORE trigger gives a row without a global id a new one (a client inserting NULL)
/// and keeps the old one when an update clears it. TRUNCATE would remove rows without a row
/// trigger firing, so no package would ever hear of it: it is refused.
import PostgreSQL

struct ChangeLogTriggers {
    var schema: String
    var table: String
    var globalIDColumn: String
    /// Every column of the table, in table order.
    var columns: [String]

    private var qualifiedTable: String { PostgreSQLQuoting.qualified(schema, table) }
    private var gid: String { PostgreSQLQuoting.identifier(globalIDColumn) }

    /// The statements that install (or bring up to date) the functions and triggers.
    var statements: [String] {
        [logFunction, guardFunction, truncateFunction,
         "CREATE OR REPLACE TRIGGER pkgbuild_log AFTER INSERT OR UPDATE OR DELETE ON \(qualifiedTable) "
            + "FOR EACH ROW EXECUTE FUNCTION \(Self.functionName("log", schema, table))()",
         "CREATE OR REPLACE TRIGGER pkgbuild_globalid BEFORE INSERT OR UPDATE ON \(qualifiedTable) "
            + "FOR EACH ROW EXECUTE FUNCTION \(Self.functionName("globalid", schema, table))()",
         "CREATE OR REPLACE TRIGGER pkgbuild_truncate BEFORE TRUNCATE ON \(qualifiedTable) "
            + "FOR EACH STATEMENT EXECUTE FUNCTION pkgbuild.refuse_truncate()"]
    }

    /// Whether the table's log function is the one these columns give and its three triggers
    /// are in place: then installing again would change nothing, and is not done (DDL on
    /// pg_proc by concurrent syncs would deadlock each other).
    func isInstalled(on connection: Connection) throws -> Bool {
        let function = Self.functionName("log", schema, table)
        let installed = try connection.queryFirst("""
            SELECT (SELECT prosrc FROM pg_proc WHERE oid = to_regprocedure($1)),
                   (SELECT count(*) FROM pg_trigger WHERE tgrelid = to_regclass($2)
                    AND tgname IN ('pkgbuild_log', 'pkgbuild_globalid', 'pkgbuild_truncate'))
            """, [.text(function + "()"), .text(qualifiedTable)])
        guard let installed, installed.string(0) == logBody else { return false }
        return try installed.int(1) == 3
    }

    /// The statements that take the triggers off the table again (for a table no longer tracked).
    var removal: [String] {
        ["DROP TRIGGER IF EXISTS pkgbuild_log ON \(qualifiedTable)",
         "DROP TRIGGER IF EXISTS pkgbuild_globalid ON \(qualifiedTable)",
         "DROP TRIGGER IF EXISTS pkgbuild_truncate ON \(qualifiedTable)",
         "DROP FUNCTION IF EXISTS \(Self.functionName("log", schema, table))()",
         "DROP FUNCTION IF EXISTS \(Self.functionName("globalid", schema, table))()"]
    }

    /// `pkgbuild."log:schema.table"`; a name past PostgreSQL's 63 bytes ends in a digest of the
    /// whole, so two long names never share a function.
    static func functionName(_ role: String, _ schema: String, _ table: String) -> String {
        var name = "\(role):\(schema).\(table)"
        if name.utf8.count > 63 {
            name = String(decoding: Array(name.utf8.prefix(40)), as: UTF8.self) + "~" + fnv1a(name)
        }
        return PostgreSQLQuoting.qualified(TrackingSchema.name, name)
    }

    /// FNV-1a of the name's bytes, as 16 hex digits: stable across versions, unlike `hashValue`.
    private static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    private func append(_ globalID: String, _ operation: String, changed: String = "NULL") -> String {
        """
        INSERT INTO pkgbuild.changes (table_schema, table_name, globalid, operation, changed_columns, replica_id, sync_id)
            VALUES (TG_TABLE_SCHEMA, TG_TABLE_NAME, \(globalID), '\(operation)', \(changed), replica, sync);
        """
    }

    private var changedColumns: String {
        let tests = columns.map { column -> String in
            let quoted = PostgreSQLQuoting.identifier(column)
            let literal = "'" + column.replacingOccurrences(of: "'", with: "''") + "'"
            return "CASE WHEN (NEW.\(quoted))::text IS DISTINCT FROM (OLD.\(quoted))::text THEN \(literal) END"
        }
        return "array_remove(ARRAY[\(tests.joined(separator: ", "))]::text[], NULL)"
    }

    private var logFunction: String {
        """
        CREATE OR REPLACE FUNCTION \(Self.functionName("log", schema, table))() RETURNS trigger
        LANGUAGE plpgsql AS $pkgbuild$\(logBody)$pkgbuild$
        """
    }

    /// The log function's body, as `pg_proc.prosrc` keeps it.
    var logBody: String {
        """

        DECLARE
            replica text := nullif(current_setting('pkgbuild.replica_id', true), '');
            sync text := nullif(current_setting('pkgbuild.sync_id', true), '');
        BEGIN
            IF TG_OP = 'INSERT' THEN
                \(append("NEW.\(gid)", "insert"))
            ELSIF TG_OP = 'DELETE' THEN
                \(append("OLD.\(gid)", "delete"))
            ELSIF NEW.\(gid) IS DISTINCT FROM OLD.\(gid) THEN
                \(append("OLD.\(gid)", "delete"))
                \(append("NEW.\(gid)", "insert"))
            ELSE
                \(append("NEW.\(gid)", "update", changed: changedColumns))
            END IF;
            RETURN NULL;
        END
        """
    }

    private var guardFunction: String {
        """
        CREATE OR REPLACE FUNCTION \(Self.functionName("globalid", schema, table))() RETURNS trigger
        LANGUAGE plpgsql AS $pkgbuild$
        BEGIN
            IF NEW.\(gid) IS NULL THEN
                NEW.\(gid) := CASE WHEN TG_OP = 'UPDATE' THEN OLD.\(gid) ELSE gen_random_uuid() END;
            END IF;
            RETURN NEW;
        END $pkgbuild$
        """
    }

    private var truncateFunction: String {
        """
        CREATE OR REPLACE FUNCTION pkgbuild.refuse_truncate() RETURNS trigger
        LANGUAGE plpgsql AS $pkgbuild$
        BEGIN
            RAISE EXCEPTION 'pkgbuild: TRUNCATE of %.% is refused: it removes rows without logging them, so packages would keep them for ever; DELETE them instead', TG_TABLE_SCHEMA, TG_TABLE_NAME
                USING ERRCODE = 'feature_not_supported';
        END $pkgbuild$
        """
    }
}
