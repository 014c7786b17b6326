/// What a resumed sync needs to know of the rows it uploaded before it was interrupted.
///
/// A sync commits at the source before it finishes in the package. If it is killed in
/// between and the field edits a row that sync uploaded, the re-run finds the sync applied
/// and keeps the newer edit pending, still against the row's older base: the next sync would
/// see the source's change (its own upload) as someone else's and call it a conflict, and
/// under source-wins throw the newer edit away. So while a sync is pending the edit triggers
/// save such a row once as it was (what the upload sent) in `pkgbuild_inflight_T` (see
/// `SyncSchema.inFlightTable`); a run that finds the sync applied makes that image the row's
/// base, and the newer edit an update of it (or a delete, when the row is gone). Every
/// finished or abandoned sync forgets the images.
import Geodatabase
import SQLite

enum InFlightImages {
    /// Makes each saved image the base of its row's newer edit (in the caller's transaction).
    static func rebase(_ tables: [SyncTable], in package: Connection) throws {
        for table in tables {
            let images = SQL.identifier(SyncSchema.inFlightTable(for: table.name))
            guard try tableExists(SyncSchema.inFlightTable(for: table.name), in: package),
                  try package.scalar("SELECT 1 FROM \(images) LIMIT 1") != nil else { continue }
            let base = SQL.identifier(SyncSchema.baseTable(for: table.name))
            let g = SQL.identifier(table.globalIDColumn), t = SQL.identifier(table.name)
            let columns = table.columns.map(SQL.identifier).joined(separator: ", ")
            try package.execute("DELETE FROM \(base) WHERE \(g) IN (SELECT \(g) FROM \(images))")
            try package.execute("INSERT INTO \(base) (\(columns)) SELECT \(columns) FROM \(images)")
            try package.execute("DELETE FROM pkgbuild_edits WHERE table_name = ? AND globalid IN (SELECT \(g) FROM \(images))",
                                [.text(table.name)])
            try package.execute("""
                INSERT INTO pkgbuild_edits (table_name, globalid, operation) SELECT ?, f.\(g),
                  CASE WHEN EXISTS (SELECT 1 FROM \(t) r WHERE r.\(g) = f.\(g)) THEN 'update' ELSE 'delete' END
                FROM \(images) f
                """, [.text(table.name)])
        }
    }

    /// Forgets every image (in the caller's transaction).
    static func clear(_ tables: [SyncTable], in package: Connection) throws {
        for table in tables where try tableExists(SyncSchema.inFlightTable(for: table.name), in: package) {
            try package.execute("DELETE FROM \(SQL.identifier(SyncSchema.inFlightTable(for: table.name)))")
        }
    }
}
