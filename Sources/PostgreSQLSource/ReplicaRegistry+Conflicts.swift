/// The conflicts of each applied sync, kept at the source (`pkgbuild.conflicts`, the value
/// columns of the package's `pkgbuild_conflicts`, see `ConflictStore`) and written in the
/// sync's own source transaction, so that a sync interrupted after the source committed learns
/// from them, on its re-run, which rows stayed pending. The same codec as a GeoPackage
/// source's: an exchange's other rows space-separated, NULL for none.
import PackageFormat
import PostgreSQL

extension ReplicaRegistry {
    /// Records a sync's conflicts, in the caller's transaction.
    func recordConflicts(_ conflicts: [Conflict], syncID: String) throws {
        guard !conflicts.isEmpty else { return }
        for conflict in conflicts {
            try connection.execute("""
                INSERT INTO pkgbuild.conflicts (sync_id, table_name, globalid, column_name, kind, base_value, package_value,
                  source_value, resolution, resolved_by, message, other_rows, status)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                """, [.text(syncID)] + Self.values(of: conflict))
        }
    }

    /// The conflicts recorded with a sync's id, in the order they were recorded.
    func conflicts(ofSync syncID: String) throws -> [Conflict] {
        try connection.query("""
            SELECT table_name, globalid, column_name, kind, base_value, package_value, source_value, resolution, resolved_by,
              message, other_rows FROM pkgbuild.conflicts WHERE sync_id = $1 ORDER BY id
            """, [.text(syncID)]).map(Self.conflict(from:))
    }

    /// A conflict's column values, `status` last: `open` while unresolved, as a package says.
    static func values(of c: Conflict) -> [Parameter] {
        func text(_ s: String?) -> Parameter { s.map(Parameter.text) ?? .null }
        return [.text(c.table), .text(c.globalID), text(c.column), .text(c.kind.rawValue), text(c.baseValue),
                text(c.packageValue), text(c.sourceValue), text(c.resolution?.rawValue), text(c.resolvedBy), text(c.message),
                c.otherRows.isEmpty ? .null : .text(c.otherRows.joined(separator: " ")),
                .text(c.resolution == nil ? "open" : "resolved")]
    }

    static func conflict(from row: Row) -> Conflict {
        Conflict(table: row.string(0) ?? "", globalID: row.string(1) ?? "", column: row.string(2),
                 kind: ConflictKind(rawValue: row.string(3) ?? "") ?? .bothChanged,
                 baseValue: row.string(4), packageValue: row.string(5), sourceValue: row.string(6),
                 resolution: row.string(7).flatMap(ConflictSide.init(rawValue:)),
                 resolvedBy: row.string(8), message: row.string(9),
                 otherRows: (row.string(10) ?? "").split(separator: " ").map(String.init))
    }
}
