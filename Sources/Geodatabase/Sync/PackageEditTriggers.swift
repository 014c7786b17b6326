/// The SQL of a package's edit triggers (see ``PackageChangeTracking`` for what each records).
///
/// A row's base row exists exactly when the row is not an offline insert (every trigger saves
/// it before recording anything else), so the operation to record is read from it: 'update'
/// (or 'delete') with a base, 'insert' without. Edits are rewritten by DELETE then INSERT, with
/// no conflict clause, which the statement that fired the trigger would override.
import SQLite

struct EditTriggerSQL {
    let table: TrackedTable
    let t: String, g: String, k: String, base: String, name: String
    /// True when a sync is not writing (its downloads are the new base, not edits).
    let tracking = "NOT EXISTS (SELECT 1 FROM pkgbuild_apply_context)"

    init(_ table: TrackedTable) {
        self.table = table
        t = SQL.identifier(table.name)
        g = SQL.identifier(table.globalIDColumn)
        k = SQL.identifier(table.keyColumn)
        base = SQL.identifier(SyncSchema.baseTable(for: table.name))
        name = SQL.literal(table.name)
    }

    private var baseColumns: String { table.columns.map(SQL.identifier).joined(separator: ", ") }

    private func hasBase(_ id: String) -> String { "EXISTS (SELECT 1 FROM \(base) b WHERE b.\(g) = \(id))" }

    /// Drops what an insert that did not happen (ignored, or failed after its BEFORE trigger) staged.
    private var clearStaging: String {
        """
        DELETE FROM \(base) WHERE \(g) IN (SELECT globalid FROM pkgbuild_replaced WHERE table_name = \(name) AND provisional); \
        DELETE FROM pkgbuild_replaced WHERE table_name = \(name);
        """
    }

    /// Saves OLD as the base, unless a base exists or the row was inserted offline.
    private var saveBase: String {
        let oldValues = table.columns.map { "OLD.\(SQL.identifier($0))" }.joined(separator: ", ")
        return """
            INSERT INTO \(base) (\(baseColumns)) SELECT \(oldValues) WHERE NOT \(hasBase("OLD.\(g)")) \
            AND NOT EXISTS (SELECT 1 FROM pkgbuild_edits WHERE table_name = \(name) AND globalid = OLD.\(g) AND operation = 'insert');
            """
    }

    /// While a sync is pending, saves OLD and its edit's operation once in the in-flight table,
    /// when that sync uploads the row (its edit is at or before the sync's position). Runs
    /// before the edit is recorded again (which moves it past that position).
    private var saveInFlight: String {
        let inFlight = SQL.identifier(SyncSchema.inFlightTable(for: table.name))
        let oldValues = table.columns.map { "OLD.\(SQL.identifier($0))" }.joined(separator: ", ")
        return """
            INSERT INTO \(inFlight) (\(baseColumns), \(SyncSchema.inFlightOperationColumn)) SELECT \(oldValues), e.operation \
            FROM pkgbuild_edits e WHERE e.table_name = \(name) AND e.globalid = OLD.\(g) \
            AND e.position <= (SELECT CAST(value AS INTEGER) FROM pkgbuild_package WHERE key = 'pending_position') \
            AND NOT EXISTS (SELECT 1 FROM \(inFlight) f WHERE f.\(g) = OLD.\(g));
            """
    }

    /// Makes `operation` the row's one edit, at a new position; `onlyIf` guards both steps,
    /// `when` the new edit.
    private func record(_ id: String, as operation: String, onlyIf guarded: String = "1", when condition: String = "1") -> String {
        """
        DELETE FROM pkgbuild_edits WHERE table_name = \(name) AND globalid = \(id) AND \(guarded); \
        INSERT INTO pkgbuild_edits (table_name, globalid, operation) SELECT \(name), \(id), \(operation) WHERE \(guarded) AND \(condition);
        """
    }

    func stageTrigger(uniqueKeys: [[String]]) -> (name: String, sql: String) {
        let trigger = "pkgbuild_edit_\(table.name)_stage"
        let provisional = "NOT \(hasBase("r.\(g)")) AND NOT EXISTS (SELECT 1 FROM pkgbuild_edits e "
            + "WHERE e.table_name = \(name) AND e.globalid = r.\(g) AND e.operation = 'insert')"
        let rowColumns = table.columns.map { "r.\(SQL.identifier($0))" }.joined(separator: ", ")
        return (trigger, """
            CREATE TRIGGER \(SQL.identifier(trigger)) BEFORE INSERT ON \(t) FOR EACH ROW WHEN \(tracking) BEGIN \
            \(clearStaging) \
            INSERT INTO pkgbuild_replaced (table_name, globalid, provisional) SELECT \(name), r.\(g), \(provisional) \
            FROM \(t) r WHERE r.\(g) IS NOT NULL AND \(ReplaceStaging.collides("r", key: table.keyColumn, uniqueKeys: uniqueKeys)); \
            INSERT INTO \(base) (\(baseColumns)) SELECT \(rowColumns) FROM \(t) r JOIN pkgbuild_replaced s \
            ON s.table_name = \(name) AND s.globalid = r.\(g) AND s.provisional; END
            """)
    }

    /// Skipped while a sync writes (which stages nothing, as the stage trigger is skipped too),
    /// unless the new row has no global id to be given: a download inserts rows by the
    /// thousand, and the confirmations would cost each more than the insert itself. What an
    /// ignored insert outside a sync staged is cleared by the next tracked write.
    var insertTrigger: (name: String, sql: String) {
        let trigger = "pkgbuild_edit_\(table.name)_insert"
        let gone = ReplaceStaging.goneRows(name, table: table)
        let current = "(SELECT r.\(g) FROM \(t) r WHERE r.\(k) = NEW.\(k))"
        return (trigger, """
            CREATE TRIGGER \(SQL.identifier(trigger)) AFTER INSERT ON \(t) FOR EACH ROW WHEN \(tracking) OR NEW.\(g) IS NULL BEGIN \
            DELETE FROM pkgbuild_edits WHERE table_name = \(name) AND globalid IN (\(gone)) AND \(tracking); \
            INSERT INTO pkgbuild_edits (table_name, globalid, operation) SELECT \(name), x.globalid, 'delete' \
            FROM (\(gone)) x WHERE \(hasBase("x.globalid")) AND \(tracking); \
            DELETE FROM \(base) WHERE \(g) IN (SELECT s.globalid FROM pkgbuild_replaced s WHERE s.table_name = \(name) \
            AND s.provisional AND s.globalid IS NOT NEW.\(g) AND EXISTS (SELECT 1 FROM \(t) r WHERE r.\(g) = s.globalid)); \
            DELETE FROM pkgbuild_replaced WHERE table_name = \(name); \
            UPDATE \(t) SET \(g) = \(GlobalID.sqlExpression) WHERE \(k) = NEW.\(k) AND NEW.\(g) IS NULL; \
            \(record(current, as: "CASE WHEN \(hasBase(current)) THEN 'update' ELSE 'insert' END", onlyIf: tracking, when: "\(current) IS NOT NULL")) END
            """)
    }

    var updateTrigger: (name: String, sql: String) {
        let trigger = "pkgbuild_edit_\(table.name)_update"
        let changed = table.changedCondition.isEmpty ? "0" : table.changedCondition
        return (trigger, """
            CREATE TRIGGER \(SQL.identifier(trigger)) AFTER UPDATE ON \(t) FOR EACH ROW \
            WHEN OLD.\(g) IS NOT NULL AND (\(changed)) AND \(tracking) BEGIN \
            \(clearStaging) \(saveInFlight) \(saveBase) \
            \(record("OLD.\(g)", as: "CASE WHEN \(hasBase("OLD.\(g)")) THEN 'update' ELSE 'insert' END")) END
            """)
    }

    var deleteTrigger: (name: String, sql: String) {
        let trigger = "pkgbuild_edit_\(table.name)_delete"
        return (trigger, """
            CREATE TRIGGER \(SQL.identifier(trigger)) AFTER DELETE ON \(t) FOR EACH ROW \
            WHEN OLD.\(g) IS NOT NULL AND \(tracking) BEGIN \
            \(clearStaging) \(saveInFlight) \(saveBase) \
            \(record("OLD.\(g)", as: "'delete'", when: hasBase("OLD.\(g)"))) END
            """)
    }
}
