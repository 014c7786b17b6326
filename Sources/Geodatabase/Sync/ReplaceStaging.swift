/// How the triggers see an `INSERT OR REPLACE`. With SQLite's default
/// `recursive_triggers = OFF` the rows a REPLACE deletes fire no DELETE trigger, so a replace
/// would be recorded as a bare insert and the old row's delete would be lost on both sides.
///
/// A trigger cannot know the statement's conflict clause, and a BEFORE INSERT trigger also
/// fires for `INSERT OR IGNORE` and for an INSERT that then fails. So the work is split:
/// - BEFORE INSERT stages, in `pkgbuild_replaced`, the global id of every row the new row could
///   collide with (its INTEGER PRIMARY KEY, or any UNIQUE index, the global id's among them),
///   after clearing what an earlier, ignored, insert left there.
/// - AFTER INSERT confirms: a staged global id no longer in the table was replaced (a delete);
///   one equal to the new row's global id was replaced by itself (an update of that row); any
///   other still exists and is forgotten.
///
/// Triggers' own statements avoid conflict clauses (`OR REPLACE`, `OR IGNORE`): the clause of
/// the statement that fired them overrides theirs, so an `UPDATE OR IGNORE` would otherwise
/// turn the change log's `INSERT OR REPLACE` into a silent no-op.
import SQLite

enum ReplaceStaging {
    static let table = "pkgbuild_replaced"

    /// `provisional` (packages only): the base row was saved by the staging, not by an edit, and
    /// goes again when the replace does not happen.
    static let ddl = """
        CREATE TABLE IF NOT EXISTS pkgbuild_replaced (table_name TEXT NOT NULL, globalid TEXT NOT NULL, \
        provisional INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_name, globalid))
        """

    /// The column sets of the table's UNIQUE indexes and constraints. Expression indexes are
    /// left out (their values cannot be named in a trigger); their collisions stay unseen.
    static func uniqueKeys(of table: String, in connection: Connection) throws -> [[String]] {
        var keys: [[String]] = []
        for index in try connection.query("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 ORDER BY name",
                                          [.text(table)]) {
            guard let name = index[0].stringValue else { continue }
            let columns = try connection.query("SELECT cid, name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)])
            guard !columns.isEmpty, columns.allSatisfy({ ($0[0].int64Value ?? -2) >= 0 }) else { continue }
            keys.append(columns.compactMap { $0[1].stringValue })
        }
        return keys
    }

    /// True for a row `alias` of the table that the row NEW could replace.
    static func collides(_ alias: String, key: String, uniqueKeys: [[String]]) -> String {
        let keyTerm = "\(alias).\(SQL.identifier(key)) = NEW.\(SQL.identifier(key))"
        let uniqueTerms = uniqueKeys.map { columns in
            "(" + columns.map { "\(alias).\(SQL.identifier($0)) = NEW.\(SQL.identifier($0))" }.joined(separator: " AND ") + ")"
        }
        return "(" + ([keyTerm] + uniqueTerms).joined(separator: " OR ") + ")"
    }

    /// The staged rows of `name` (a SQL literal) gone from the table: the ones really replaced.
    static func goneRows(_ name: String, table: TrackedTable) -> String {
        let t = SQL.identifier(table.name), g = SQL.identifier(table.globalIDColumn)
        return """
            SELECT s.globalid FROM pkgbuild_replaced s WHERE s.table_name = \(name) \
            AND NOT EXISTS (SELECT 1 FROM \(t) r WHERE r.\(g) = s.globalid)
            """
    }
}
