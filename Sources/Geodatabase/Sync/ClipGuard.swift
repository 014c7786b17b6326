/// Clipped layers: a package's copy of a clipped layer holds geometries cut to the package's
/// area, which are not the source's. Its attribute edits sync; a geometry edit, an insert or a
/// delete cannot, so triggers refuse them when they are written, by any client, with a message
/// that says why. A sync's own writes (the apply context set) pass.
///
/// Triggers on a clipped table T with geometry column C, core SQL only:
/// `pkgbuild_clip_T_insert` BEFORE INSERT, `pkgbuild_clip_T_delete` BEFORE DELETE and
/// `pkgbuild_clip_T_geometry` BEFORE UPDATE OF C WHEN the value changes: RAISE(ABORT, ...).
import SQLite

extension PackageChangeTracking {
    /// The message the triggers raise for a clipped layer.
    public static func clippedLayerMessage(_ table: String) -> String {
        "pkgbuild: layer \(table) was clipped to the package's area; its geometries, inserts and deletes cannot sync"
    }

    /// Installs the refusing triggers on tracked tables that were clipped; doing it again
    /// changes nothing.
    public func installClipGuards(tables: [String]) throws {
        guard !tables.isEmpty else { return }
        try connection.withTransaction(.immediate) {
            for table in tables {
                for trigger in try Self.clipGuardTriggers(table, in: connection) {
                    try installTrigger(named: trigger.name, sql: trigger.sql, in: connection)
                }
            }
        }
    }

    static func clipGuardTriggers(_ table: String, in connection: Connection) throws -> [(name: String, sql: String)] {
        let t = SQL.identifier(table)
        let raise = "SELECT RAISE(ABORT, \(SQL.literal(clippedLayerMessage(table))));"
        let tracking = "NOT EXISTS (SELECT 1 FROM pkgbuild_apply_context)"
        var triggers: [(name: String, sql: String)] = []
        for (operation, name) in [("INSERT", "insert"), ("DELETE", "delete")] {
            let trigger = "pkgbuild_clip_\(table)_\(name)"
            triggers.append((trigger, """
                CREATE TRIGGER \(SQL.identifier(trigger)) BEFORE \(operation) ON \(t) FOR EACH ROW WHEN \(tracking) BEGIN \(raise) END
                """))
        }
        if let column = try connection.scalar("SELECT column_name FROM gpkg_geometry_columns WHERE lower(table_name) = lower(?)",
                                              [.text(table)])?.stringValue {
            let c = SQL.identifier(column), trigger = "pkgbuild_clip_\(table)_geometry"
            triggers.append((trigger, """
                CREATE TRIGGER \(SQL.identifier(trigger)) BEFORE UPDATE OF \(c) ON \(t) FOR EACH ROW \
                WHEN OLD.\(c) IS NOT NEW.\(c) AND \(tracking) BEGIN \(raise) END
                """))
        }
        return triggers
    }
}
