/// The three-way reconcile of one locally changed row: its base (as extracted or last synced),
/// the package's row now, and the source's row now, column by column. Pure: no database, no
/// geometry library; values are compared through the closure the caller gives.
import Geodatabase
import PackageFormat
import SQLite

/// What the source must do for one row.
public enum SourceAction: Sendable, Hashable {
    case none
    /// Insert the row (values by column, the global id included, the key left out).
    case insert(RowValues)
    /// Set these columns of the row.
    case update(RowValues)
    case delete
}

/// The outcome of reconciling one row.
public struct RowReconciliation: Sendable, Hashable {
    public var sourceAction: SourceAction
    /// Every conflict found, settled or not.
    public var conflicts: [Conflict]
    /// True when some conflict has no winner (policy `fail` and no decision): the sync must
    /// change nothing.
    public var isUnresolved: Bool { conflicts.contains { $0.resolution == nil && $0.kind.isWinnable } }
    /// True when the local change must stay pending after the sync (a download-only layer).
    public var keepsPending: Bool
    /// True when, once the source action is applied, the source row holds exactly the
    /// package's values: the package need not take the source's row back.
    public var leavesRowsEqual: Bool

    public init(sourceAction: SourceAction = .none, conflicts: [Conflict] = [], keepsPending: Bool = false,
                leavesRowsEqual: Bool = false) {
        self.sourceAction = sourceAction
        self.conflicts = conflicts
        self.keepsPending = keepsPending
        self.leavesRowsEqual = leavesRowsEqual
    }
}

/// Three-way, per-column reconciliation of local changes against the source.
public struct Reconciler {
    /// True when two values of a column are the same (geometries compared as geometries).
    public typealias Equality = (_ table: SyncTable, _ column: String, _ a: SQLiteValue, _ b: SQLiteValue) -> Bool
    /// A value as text for a conflict record (geometries as WKT).
    public typealias Describe = (_ table: SyncTable, _ column: String, _ value: SQLiteValue) -> String?

    public var policy: ConflictPolicy
    public var decisions: ConflictDecisions
    public var equal: Equality
    public var describe: Describe

    public init(policy: ConflictPolicy, decisions: ConflictDecisions = ConflictDecisions(),
                equal: @escaping Equality, describe: @escaping Describe) {
        self.policy = policy
        self.decisions = decisions
        self.equal = equal
        self.describe = describe
    }

    /// Reconciles one local change with the source's current row (nil when the source has no
    /// row of that global id: never had one, or deleted it).
    public func reconcile(_ change: PendingChange, in table: SyncTable, sourceRow: RowValues?) -> RowReconciliation {
        if table.cut.clipped && !table.cut.schemaOnly { return reconcileClipped(change, in: table, sourceRow: sourceRow) }
        if table.isDownloadOnly {
            let reason = "layer \(table.name) was packaged without its rows, so it is download-only; the local \(change.operation.rawValue) stays pending"
            return RowReconciliation(conflicts: [Conflict(table: table.name, globalID: change.globalID, column: nil,
                                                          kind: .downloadOnly, message: reason)],
                                     keepsPending: true)
        }
        switch change.operation {
        case .insert:
            guard let current = change.current else { return RowReconciliation() }
            guard let sourceRow else {
                return RowReconciliation(sourceAction: .insert(uploadRow(current, table)), leavesRowsEqual: true)
            }
            // The source already has this global id (an earlier upload of it, or the same row
            // inserted on both sides): only differing columns matter.
            return mergeColumns(table: table, globalID: change.globalID, base: nil, current: current, source: sourceRow)
        case .update:
            guard let current = change.current else { return RowReconciliation() }
            guard let sourceRow else {
                var conflict = Conflict(table: table.name, globalID: change.globalID, column: nil, kind: .updateDelete,
                                        baseValue: "row", packageValue: "updated", sourceValue: nil)
                let side = settle(&conflict)
                return RowReconciliation(sourceAction: side == .package ? .insert(uploadRow(current, table)) : .none,
                                         conflicts: [conflict])
            }
            return mergeColumns(table: table, globalID: change.globalID, base: change.base, current: current, source: sourceRow)
        case .delete:
            guard let sourceRow else { return RowReconciliation() }
            let base = change.base
            let changedAtSource = table.valueColumns.filter { column in
                guard let base else { return true }
                return !equal(table, column, base[column] ?? .null, sourceRow[column] ?? .null)
            }
            if changedAtSource.isEmpty { return RowReconciliation(sourceAction: .delete, leavesRowsEqual: true) }
            var conflict = Conflict(table: table.name, globalID: change.globalID, column: nil, kind: .deleteUpdate,
                                    baseValue: "row", packageValue: nil,
                                    sourceValue: "updated: " + changedAtSource.joined(separator: ", "))
            let side = settle(&conflict)
            return RowReconciliation(sourceAction: side == .package ? .delete : .none, conflicts: [conflict])
        }
    }

    /// A clipped layer: attribute edits merge against the source's attributes (the geometry is
    /// the area's cut of the source's, never compared). A geometry edit, an insert or a delete
    /// cannot sync (the triggers refuse them now; packages made before may hold some): a
    /// conflict that keeps the edit pending until `resolve --take source` discards it, the
    /// package's row image kept in the conflict record; the source's row then comes down.
    private func reconcileClipped(_ change: PendingChange, in table: SyncTable, sourceRow: RowValues?) -> RowReconciliation {
        let geometryEdited = change.changedColumns.contains(where: table.isGeometry)
        if change.operation == .update, !geometryEdited, let current = change.current, let sourceRow {
            var attributes = table
            attributes.columns = table.columns.filter { !table.isGeometry($0) }
            var result = mergeColumns(table: attributes, globalID: change.globalID, base: change.base, current: current, source: sourceRow)
            // The package takes the source's row back, its geometry cut again.
            result.leavesRowsEqual = false
            return result
        }
        let what = change.operation == .update ? (sourceRow == nil ? "update of a row deleted at the source" : "geometry edit")
            : change.operation.rawValue
        var conflict = Conflict(table: table.name, globalID: change.globalID, column: nil, kind: .downloadOnly,
                                packageValue: rowImage(change.current ?? change.base, table),
                                message: "layer \(table.name) was clipped to the package's area; its geometries, inserts and deletes "
                                    + "cannot sync: the local \(what) stays pending until 'pkgbuild resolve --take source' discards it")
        if decisions.side(table: table.name, globalID: change.globalID, column: nil) == .source {
            conflict.resolution = .source
            conflict.resolvedBy = "decision"
            return RowReconciliation(conflicts: [conflict])
        }
        return RowReconciliation(conflicts: [conflict], keepsPending: true)
    }

    /// A row as text for a conflict record: `column=value` for every value column.
    private func rowImage(_ row: RowValues?, _ table: SyncTable) -> String? {
        Self.rowImage(row, table, describe: describe)
    }

    /// A row as text for a conflict record: `column=value` for every value column.
    static func rowImage(_ row: RowValues?, _ table: SyncTable, describe: Describe) -> String? {
        guard let row else { return nil }
        return table.valueColumns.map { "\($0)=\(describe(table, $0, row[$0] ?? .null) ?? "NULL")" }.joined(separator: "; ")
    }

    /// Column by column: changed in the package only goes up; changed at the source only stays
    /// (the package takes it after); changed on both to the same value is no conflict.
    private func mergeColumns(table: SyncTable, globalID: String, base: RowValues?, current: RowValues,
                              source: RowValues) -> RowReconciliation {
        var setColumns: [String] = []
        var setValues: [SQLiteValue] = []
        var conflicts: [Conflict] = []
        var sourceKeeps = false
        for column in table.valueColumns {
            let p = current[column] ?? .null, s = source[column] ?? .null
            if equal(table, column, p, s) { continue }
            let b = base?[column]
            let changedInPackage = b.map { !equal(table, column, $0, p) } ?? true
            let changedAtSource = b.map { !equal(table, column, $0, s) } ?? true
            if changedInPackage && !changedAtSource {
                setColumns.append(column)
                setValues.append(p)
            } else if !changedInPackage {
                sourceKeeps = true
            } else {
                var conflict = Conflict(table: table.name, globalID: globalID, column: column, kind: .bothChanged,
                                        baseValue: b.flatMap { describe(table, column, $0) },
                                        packageValue: describe(table, column, p), sourceValue: describe(table, column, s))
                if settle(&conflict) == .package {
                    setColumns.append(column)
                    setValues.append(p)
                } else {
                    sourceKeeps = true
                }
                conflicts.append(conflict)
            }
        }
        let action: SourceAction = setColumns.isEmpty ? .none : .update(RowValues(columns: setColumns, values: setValues))
        return RowReconciliation(sourceAction: action, conflicts: conflicts, leavesRowsEqual: !sourceKeeps)
    }

    /// Picks the winner of a conflict: a recorded decision first, then the policy.
    private func settle(_ conflict: inout Conflict) -> ConflictSide? {
        if let side = decisions.side(table: conflict.table, globalID: conflict.globalID, column: conflict.column) {
            conflict.resolution = side
            conflict.resolvedBy = "decision"
        } else if let side = policy.side {
            conflict.resolution = side
            conflict.resolvedBy = "policy"
        }
        return conflict.resolution
    }

    /// The row to insert at the source: every value column and the global id, never the key.
    private func uploadRow(_ row: RowValues, _ table: SyncTable) -> RowValues {
        let columns = [table.globalIDColumn] + table.valueColumns
        return RowValues(columns: columns, values: columns.map { row[$0] ?? .null })
    }
}
