import SQLite

/// Rows given a global id per statement: small enough that a large table reports progress
/// every fraction of a second, large enough that the statements cost nothing extra.
let globalIDFillSlice = 20_000

/// Gives every row of `table` whose `column` is NULL a fresh global id, in slices along its
/// integer key so that `progress` hears how far a large table has come (filled, to fill).
/// The slices' ends are found by seeking the key's b-tree, so sparse keys cost no more than
/// dense ones and the whole fill stays linear in the table's size.
func fillGlobalIDs(_ table: String, key: String, column: String, in connection: Connection,
                   progress: (_ done: Int, _ total: Int) -> Void) throws {
    let t = SQL.identifier(table), k = SQL.identifier(key), g = SQL.identifier(column)
    let missing = Int(try connection.scalar("SELECT count(*) FROM \(t) WHERE \(g) IS NULL")?.int64Value ?? 0)
    guard missing > 0 else { return }
    let update = "UPDATE \(t) SET \(g) = \(GlobalID.sqlExpression) WHERE \(g) IS NULL"
    var filled = 0
    // The key's value that ended the last slice; nil before the first.
    var after: SQLiteValue?
    progress(0, missing)
    while true {
        var condition = "", arguments: [SQLiteValue] = []
        if let after {
            condition = " AND \(k) > ?"
            arguments = [after]
        }
        let end = try connection.scalar("SELECT \(k) FROM \(t) WHERE 1\(condition) ORDER BY \(k) LIMIT 1 "
                                        + "OFFSET \(globalIDFillSlice - 1)", arguments)
        if let end {
            condition += " AND \(k) <= ?"
            arguments.append(end)
        } else {
            // The last slice takes every row still without one, whatever its key (a NULL key
            // is in no range): no row is left untracked.
            condition = ""
            arguments = []
        }
        try connection.execute(update + condition, arguments)
        filled += connection.changes
        progress(min(filled, missing), missing)
        guard let end else { break }
        after = end
    }
    progress(missing, missing)
}
