/// The SQL of a source's change-log triggers (see ``SourceGeodatabase`` for what each logs).
///
/// A row's log entry is rewritten by DELETE then INSERT, with no conflict clause: the clause of
/// the statement that fired the trigger overrides a trigger's own, and an `UPDATE OR IGNORE`
/// would otherwise keep the row's old generation, hiding the change from every download.
import SQLite

struct LogTriggerSQL {
    let table: TrackedTable
    let t: String, g: String, k: String, name: String
    let context = "(SELECT replica_id FROM pkgbuild_apply_context), (SELECT sync_id FROM pkgbuild_apply_context)"

    init(_ table: TrackedTable) {
        self.table = table
        t = SQL.identifier(table.name)
        g = SQL.identifier(table.globalIDColumn)
        k = SQL.identifier(table.keyColumn)
        name = SQL.literal(table.name)
    }

    /// Makes the row's one log entry `operation`, at a new generation.
    private func log(_ id: String, as operation: String, from source: String = "") -> String {
        let rows = source.isEmpty ? "= \(id)" : "IN (SELECT \(id)\(source))"
        return """
        DELETE FROM pkgbuild_changes WHERE table_name = \(name) AND globalid \(rows); \
        INSERT INTO pkgbuild_changes (table_name, globalid, operation, replica_id, sync_id) \
        SELECT \(name), \(id), \(operation), \(context)\(source);
        """
    }

    func stageTrigger(uniqueKeys: [[String]]) -> (name: String, sql: String) {
        let trigger = "pkgbuild_log_\(table.name)_stage"
        return (trigger, """
            CREATE TRIGGER \(SQL.identifier(trigger)) BEFORE INSERT ON \(t) FOR EACH ROW BEGIN \
            DELETE FROM pkgbuild_replaced WHERE table_name = \(name); \
            INSERT INTO pkgbuild_replaced (table_name, globalid) SELECT \(name), r.\(g) FROM \(t) r \
            WHERE r.\(g) IS NOT NULL AND \(ReplaceStaging.collides("r", key: table.keyColumn, uniqueKeys: uniqueKeys)); END
            """)
    }

    var insertTrigger: (name: String, sql: String) {
        let trigger = "pkgbuild_log_\(table.name)_insert"
        let replacedItself = "EXISTS (SELECT 1 FROM pkgbuild_replaced s WHERE s.table_name = \(name) AND s.globalid = r.\(g))"
        return (trigger, """
            CREATE TRIGGER \(SQL.identifier(trigger)) AFTER INSERT ON \(t) FOR EACH ROW BEGIN \
            \(log("x.globalid", as: "'delete'", from: " FROM (\(ReplaceStaging.goneRows(name, table: table))) x")) \
            UPDATE \(t) SET \(g) = \(GlobalID.sqlExpression) WHERE \(k) = NEW.\(k) AND NEW.\(g) IS NULL; \
            \(log("r.\(g)", as: "CASE WHEN \(replacedItself) THEN 'update' ELSE 'insert' END", from: " FROM \(t) r WHERE r.\(k) = NEW.\(k)")) \
            DELETE FROM pkgbuild_replaced WHERE table_name = \(name); END
            """)
    }

    var updateTrigger: (name: String, sql: String) {
        let trigger = "pkgbuild_log_\(table.name)_update"
        let changed = table.changedCondition.isEmpty ? "0" : table.changedCondition
        return (trigger, """
            CREATE TRIGGER \(SQL.identifier(trigger)) AFTER UPDATE ON \(t) FOR EACH ROW \
            WHEN OLD.\(g) IS NOT NULL AND (\(changed)) BEGIN \(log("NEW.\(g)", as: "'update'")) END
            """)
    }

    var deleteTrigger: (name: String, sql: String) {
        let trigger = "pkgbuild_log_\(table.name)_delete"
        return (trigger, """
            CREATE TRIGGER \(SQL.identifier(trigger)) AFTER DELETE ON \(t) FOR EACH ROW WHEN OLD.\(g) IS NOT NULL BEGIN \
            \(log("OLD.\(g)", as: "'delete'")) END
            """)
    }
}
