/// Where conflicts are kept.
///
/// In the package, every conflict a sync found, resolved or not, with the decision `resolve`
/// recorded for the next sync:
///
/// ```sql
/// CREATE TABLE pkgbuild_conflicts (id INTEGER PRIMARY KEY AUTOINCREMENT, sync_id TEXT NOT NULL,
///   table_name TEXT NOT NULL, globalid TEXT NOT NULL, column_name TEXT,   -- NULL: whole row
///   kind TEXT NOT NULL, base_value TEXT, package_value TEXT, source_value TEXT,
///   resolution TEXT,        -- 'package' | 'source' | NULL (unresolved)
///   resolved_by TEXT,       -- 'policy' | 'decision' | NULL
///   message TEXT,
///   other_rows TEXT,        -- an exchange's other rows: their global ids, space-separated
///   decision TEXT,          -- what `resolve` chose for the next sync: 'package' | 'source'
///   status TEXT NOT NULL,   -- 'open' (listed by `conflicts`), 'resolved', 'closed' (superseded)
///   recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
/// ```
///
/// At the source, the conflicts of each applied sync (`pkgbuild_sync_conflicts`): Sync's
/// side of this store (`ConflictStore+Source.swift`), same value columns and row codec.
import Geodatabase
import SQLite

public enum ConflictStore {
    static let packageTable = "pkgbuild_conflicts"

    static let packageDDL = """
        CREATE TABLE IF NOT EXISTS pkgbuild_conflicts (id INTEGER PRIMARY KEY AUTOINCREMENT, \
        sync_id TEXT NOT NULL, table_name TEXT NOT NULL, globalid TEXT NOT NULL, column_name TEXT, \
        kind TEXT NOT NULL, base_value TEXT, package_value TEXT, source_value TEXT, resolution TEXT, \
        resolved_by TEXT, message TEXT, other_rows TEXT, decision TEXT, status TEXT NOT NULL, \
        recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))
        """

    package static let valueColumns = "table_name, globalid, column_name, kind, base_value, package_value, source_value, resolution, resolved_by, message, other_rows"
    private static let valueCount = 11

    /// Creates the table, or gives one made before exchanges were one conflict its
    /// `other_rows` column.
    package static func prepare(_ table: String, ddl: String, in connection: Connection) throws {
        try connection.execute(ddl)
        if try !hasOtherRows(table, in: connection) {
            try connection.execute("ALTER TABLE \(table) ADD COLUMN other_rows TEXT")
        }
    }

    /// Whether the table has the `other_rows` column (tables made before it do not).
    private static func hasOtherRows(_ table: String, in connection: Connection) throws -> Bool {
        try connection.scalar("SELECT 1 FROM pragma_table_info(?) WHERE name = 'other_rows'", [.text(table)]) != nil
    }

    /// The value columns to read: a table not yet prepared (a read-only package made before
    /// `other_rows`) reads NULL for it.
    package static func readColumns(_ table: String, in connection: Connection) throws -> String {
        try hasOtherRows(table, in: connection)
            ? valueColumns : valueColumns.replacingOccurrences(of: ", other_rows", with: ", NULL AS other_rows")
    }

    /// The SQL condition that `other_rows` lists the row `?` (a normalized globalid).
    private static let otherRowsHold =
        "instr(' ' || upper(replace(replace(ifnull(other_rows, ''), '{', ''), '}', '')) || ' ', ' ' || ? || ' ') > 0"

    // MARK: Package

    /// The decisions `resolve` recorded on open conflicts.
    public static func decisions(in package: Connection) throws -> [ConflictDecision] {
        guard try tableExists(packageTable, in: package) else { return [] }
        return try package.query("""
            SELECT table_name, globalid, column_name, decision FROM pkgbuild_conflicts
            WHERE status = 'open' AND decision IS NOT NULL ORDER BY id
            """).compactMap { row in
            guard let side = row[3].stringValue.flatMap(ConflictSide.init(rawValue:)) else { return nil }
            return ConflictDecision(table: row[0].stringValue ?? "", globalID: row[1].stringValue ?? "",
                                    column: row[2].stringValue, take: side)
        }
    }

    /// The rows whose local change `resolve --take source` discards: open conflicts no policy
    /// settles (a change the source refuses, one a clipped layer cannot take) with that decision.
    public static func discards(in package: Connection) throws -> Set<RowKey> {
        guard try tableExists(packageTable, in: package) else { return [] }
        let kinds = ConflictKind.allCases.filter { !$0.isWinnable }.map { SQL.literal($0.rawValue) }.joined(separator: ", ")
        let others = try hasOtherRows(packageTable, in: package)
        var rows = Set<RowKey>()
        for row in try package.query("""
            SELECT table_name, globalid, \(others ? "other_rows" : "NULL") FROM pkgbuild_conflicts
            WHERE status = 'open' AND decision = 'source' AND kind IN (\(kinds))
            """) {
            let table = row[0].stringValue ?? ""
            for globalID in [row[1].stringValue ?? ""] + otherRows(row[2]) { rows.insert(RowKey(table, globalID)) }
        }
        return rows
    }

    /// The conflicts still open (unresolved, or resolved by a decision not yet applied).
    public static func open(in package: Connection) throws -> [(conflict: Conflict, decision: ConflictSide?)] {
        guard try tableExists(packageTable, in: package) else { return [] }
        let columns = try readColumns(packageTable, in: package)
        return try package.query("SELECT \(columns), decision FROM pkgbuild_conflicts WHERE status = 'open' ORDER BY id")
            .map { (conflict(from: $0), $0[valueCount].stringValue.flatMap(ConflictSide.init(rawValue:))) }
    }

    /// Records a sync's conflicts. After an applied sync every earlier open conflict is closed
    /// (this sync re-examined every pending change); after a sync that stopped on conflicts,
    /// earlier open ones are closed except those carrying a decision, kept for the next sync.
    public static func record(_ conflicts: [Conflict], syncID: String, applied: Bool, in package: Connection) throws {
        try prepare(packageTable, ddl: packageDDL, in: package)
        try OwnTables.register(in: package, side: .package)
        try package.execute(applied
            ? "UPDATE pkgbuild_conflicts SET status = 'closed' WHERE status = 'open'"
            : "UPDATE pkgbuild_conflicts SET status = 'closed' WHERE status = 'open' AND decision IS NULL")
        let insert = try package.prepare("""
            INSERT INTO pkgbuild_conflicts (sync_id, \(valueColumns), status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for conflict in conflicts {
            // A conflict settled by a decision in a sync that was not applied keeps its open
            // decision row; listing it twice would say nothing new.
            if !applied && conflict.resolvedBy == "decision" { continue }
            let status = conflict.resolution == nil ? "open" : (applied ? "resolved" : "open")
            insert.reset()
            try insert.bind([.text(syncID)] + values(of: conflict) + [.text(status)])
            while try insert.step() {}
        }
    }

    /// Records decisions for the next sync on open conflicts of a row (all its columns and
    /// whole-row conflicts, or one column), or on every open conflict when `globalID` is nil.
    /// - Returns: the number of conflicts the decision covers.
    public static func decide(_ side: ConflictSide, globalID: String?, column: String?, in package: Connection) throws -> Int {
        guard try tableExists(packageTable, in: package) else { return 0 }
        var sql = "UPDATE pkgbuild_conflicts SET decision = ? WHERE status = 'open'"
        var arguments: [SQLiteValue] = [.text(side.rawValue)]
        if let globalID {
            try prepare(packageTable, ddl: packageDDL, in: package)
            // As people type it: any case, braces optional (GlobalID's one parser); the row's
            // own conflict, or an exchange that holds it back.
            let match = GlobalID.condition("globalid", typed: globalID)
            sql += " AND (\(match.sql) OR \(otherRowsHold))"
            arguments += [.text(match.argument), .text(GlobalID.normalized(globalID) ?? globalID)]
        }
        if let column {
            sql += " AND column_name = ? COLLATE NOCASE"
            arguments.append(.text(column))
        }
        try package.execute(sql, arguments)
        return package.changes
    }

    // MARK: Rows

    package static func values(of c: Conflict) -> [SQLiteValue] {
        func text(_ s: String?) -> SQLiteValue { s.map(SQLiteValue.text) ?? .null }
        return [.text(c.table), .text(c.globalID), text(c.column), .text(c.kind.rawValue), text(c.baseValue),
                text(c.packageValue), text(c.sourceValue), text(c.resolution?.rawValue), text(c.resolvedBy), text(c.message),
                c.otherRows.isEmpty ? .null : .text(c.otherRows.joined(separator: " "))]
    }

    package static func conflict(from row: [SQLiteValue]) -> Conflict {
        Conflict(table: row[0].stringValue ?? "", globalID: row[1].stringValue ?? "", column: row[2].stringValue,
                 kind: ConflictKind(rawValue: row[3].stringValue ?? "") ?? .bothChanged,
                 baseValue: row[4].stringValue, packageValue: row[5].stringValue, sourceValue: row[6].stringValue,
                 resolution: row[7].stringValue.flatMap(ConflictSide.init(rawValue:)),
                 resolvedBy: row[8].stringValue, message: row[9].stringValue, otherRows: otherRows(row[10]))
    }

    private static func otherRows(_ value: SQLiteValue) -> [String] {
        (value.stringValue ?? "").split(separator: " ").map(String.init)
    }
}
