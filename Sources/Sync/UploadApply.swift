/// Writing a reconciled upload at the source, row by row, in the order the source can take.
///
/// A source checks a UNIQUE index at each row (SQLite does, and PostgreSQL for a constraint
/// that is not deferred), so offline changes that moved unique values along
/// (A takes B's old value, B takes a new one) are refused in one order and accepted in the
/// other. A row refused because a unique value it takes is still held waits, and is tried
/// again once the other rows went: any order that frees each value first is found this way.
/// What no order lets through (a swap of two values, or a value another source row holds) is
/// a constraint conflict naming the row that holds the value.
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers

extension SyncRun {
    /// A local change with its table and reconciliation, ready to write.
    typealias UploadPlan = (change: PendingChange, table: SyncTable, result: RowReconciliation)

    /// An upload as it streams: what it did and found so far.
    struct StreamedUpload {
        var outcome = UploadOutcome()
        /// A conflict is left unresolved: nothing more is written, the source rolls back.
        var stopping = false
        /// Rows refused for a unique value another row still holds, tried again at the end.
        var waiting: [(plan: UploadPlan, error: SourceRefusal)] = []
        /// The conflicts of rows the source refused, reported after the reconcile's.
        var refusals: [Conflict] = []
        /// Every row the source refused at some try (those that waited, even if taken later).
        var refused = Set<RowKey>()

        /// A row the source refused at some try is not known to hold the package's row.
        mutating func forgetRefusedRowsAsSent() {
            guard !refused.isEmpty else { return }
            for i in outcome.toBring.indices where outcome.toBring[i].held.isAsSent && refused.contains(outcome.toBring[i].key) {
                outcome.toBring[i].held = .unknown
            }
        }
    }

    /// Why the source did not take one row.
    enum RowApplyRefusal {
        case source(SourceRefusal)
        case check(String)
    }

    /// Writes a batch of plans of one table at the source, counting what was written; a row
    /// refused because a unique value it takes is still held waits for the end of the upload
    /// (``applyWaiting(into:)``), another refusal is a conflict.
    func applyBatch(_ plans: [UploadPlan], into upload: inout StreamedUpload) throws {
        guard let table = plans.first?.table else { return }
        var writes: [SourceWrite] = [], written: [UploadPlan] = []
        for plan in plans {
            switch try sourceWrite(for: plan) {
            case .nothing: break
            case .write(let write): writes.append(write); written.append(plan)
            case .refused(let refusal):
                upload.refusals.append(refusedConflict(plan, refusal))
                upload.refused.insert(RowKey(plan.change.table, plan.change.globalID))
            }
        }
        for (plan, (write, outcome)) in zip(written, zip(writes, try source.apply(writes, in: table.shape))) {
            if case .refused = outcome { upload.refused.insert(RowKey(plan.change.table, plan.change.globalID)) }
            switch outcome {
            case .applied: upload.outcome.counts.count(write)
            case .refused(let refusal) where refusal.isUniqueViolation: upload.waiting.append((plan, refusal))
            case .refused(let refusal): upload.refusals.append(refusedConflict(plan, .source(refusal)))
            }
        }
    }

    /// Once every row was tried, the rows that waited for a unique value are tried again while
    /// that lets more through: any order that frees each value first is found this way. What
    /// no order lets through is a conflict; the refusals join the upload's conflicts.
    func applyWaiting(into upload: inout StreamedUpload) throws {
        var waiting = upload.waiting
        var progressed = true
        while progressed && !waiting.isEmpty {
            progressed = false
            var still: [(plan: UploadPlan, error: SourceRefusal)] = []
            for entry in waiting {
                if case .source(let error)? = try applyOne(entry.plan, counts: &upload.outcome.counts) {
                    still.append((entry.plan, error))
                } else {
                    progressed = true
                }
            }
            waiting = still
        }
        upload.outcome.conflicts += upload.refusals
        upload.outcome.conflicts += try uniqueConflicts(waiting)
    }

    /// The conflicts of the rows no order let through: one for each exchange (a cycle of rows
    /// each wanting the next one's value), naming all its rows, and one for each other row,
    /// naming the row that holds its value.
    private func uniqueConflicts(_ waiting: [(plan: UploadPlan, error: SourceRefusal)]) throws -> [Conflict] {
        var holders: [RowKey: String] = [:]
        for entry in waiting {
            let key = RowKey(entry.plan.table.name, entry.plan.change.globalID)
            holders[key] = try holderOfUniqueValue(entry.plan, columns: entry.error.uniqueColumns ?? [])
        }
        var conflicts: [Conflict] = [], inExchange = Set<RowKey>()
        for entry in waiting {
            let table = entry.plan.table.name, key = RowKey(table, entry.plan.change.globalID)
            guard !inExchange.contains(key) else { continue }
            // Follow holder to holder among the waiting rows: back at this row is an exchange.
            var cycle = [key.globalID], next = holders[key]
            while let holder = next, holders[RowKey(table, holder)] != nil, !cycle.contains(holder) {
                cycle.append(holder)
                next = holders[RowKey(table, holder)]
            }
            if next == key.globalID && cycle.count > 1 {
                cycle.forEach { inExchange.insert(RowKey(table, $0)) }
                conflicts.append(exchangeConflict(entry.plan, entry.error, rows: cycle))
            } else {
                conflicts.append(heldValueConflict(entry.plan, entry.error, holder: holders[key]))
            }
        }
        return conflicts
    }

    /// Writes one row; nil when the source took it.
    private func applyOne(_ plan: UploadPlan, counts: inout RowCounts) throws -> RowApplyRefusal? {
        let write: SourceWrite
        switch try sourceWrite(for: plan) {
        case .nothing: return nil
        case .write(let planned): write = planned
        case .refused(let refusal): return refusal
        }
        // A row the source refuses leaves nothing behind, and the transaction goes on.
        if case .refused(let refusal) = try source.apply(write, in: plan.table.shape) { return .source(refusal) }
        counts.count(write)
        return nil
    }

    /// The write a plan makes at the source, or why the source cannot take it.
    enum PlannedWrite {
        case nothing
        case write(SourceWrite)
        case refused(RowApplyRefusal)
    }

    private func sourceWrite(for plan: UploadPlan) throws -> PlannedWrite {
        let (change, table, result) = plan
        do {
            switch try checkGeometry(of: try mappingLinks.atSource(result.sourceAction, of: table), in: table) {
            case .none: return .nothing
            case .insert(let row): return .write(.insert(row.sourceRow(isGeometry: table.isGeometry)))
            case .update(let values): return .write(.update(globalID: change.globalID, values.sourceRow(isGeometry: table.isGeometry)))
            case .delete: return .write(.delete(globalID: change.globalID))
            }
        } catch let refusal as RowRefusal {
            return .refused(.check(refusal.message))
        }
    }

    private func refusedConflict(_ plan: UploadPlan, _ refusal: RowApplyRefusal) -> Conflict {
        let operation = plan.change.operation.rawValue
        let message = switch refusal {
        case .source(let error): "the source refused the \(operation): \(error.message)"
        case .check(let reason): "the source cannot take the \(operation): \(reason)"
        }
        return Conflict(table: plan.table.name, globalID: plan.change.globalID, column: nil, kind: .constraint,
                        packageValue: operation, message: message)
    }

    /// An exchange of unique values among `rows` (the plan's first): one conflict for them all.
    private func exchangeConflict(_ plan: UploadPlan, _ error: SourceRefusal, rows: [String]) -> Conflict {
        var conflict = refusedConflict(plan, .source(error))
        conflict.otherRows = Array(rows.dropFirst())
        let names = (error.uniqueColumns ?? []).joined(separator: ", ")
        let listed = rows.count == 2 ? "\(rows[0]) and \(rows[1])" : rows.dropLast().joined(separator: ", ") + " and \(rows.last ?? "")"
        conflict.message = """
            rows \(listed) of \(plan.table.name) exchange values of unique \(names): no order of their changes \
            avoids a collision at the source; take the source's side (pkgbuild resolve PKG --id \(plan.change.globalID) \
            --take source) to discard the exchange, then make it through a free value, one sync for each step
            """
        return conflict
    }

    /// A row whose unique value another source row keeps.
    private func heldValueConflict(_ plan: UploadPlan, _ error: SourceRefusal, holder: String?) -> Conflict {
        var conflict = refusedConflict(plan, .source(error))
        guard let holder else { return conflict }
        conflict.message = """
            the value of unique \((error.uniqueColumns ?? []).joined(separator: ", ")) is held at the source by row \(holder) of \
            \(plan.table.name) (\(error.message)); take the source's side to discard this change (pkgbuild resolve PKG --id \
            \(plan.change.globalID) --take source), or edit the row
            """
        return conflict
    }

    /// The global id of the source row that holds the unique value the plan writes.
    private func holderOfUniqueValue(_ plan: UploadPlan, columns: [String]) throws -> String? {
        let written: RowValues
        switch plan.result.sourceAction {
        case .insert(let row), .update(let row): written = row
        case .none, .delete: return nil
        }
        let current = try sourceRows.row(plan.change.globalID, in: plan.table)
        let values = columns.map { written[$0] ?? current?[$0] ?? .null }
        guard !columns.isEmpty, !values.contains(.null) else { return nil }
        return try source.holder(of: zip(columns, values).map { ($0, SourceValue($1, isGeometry: false)) }, in: plan.table.shape,
                                 besides: plan.change.globalID)
    }

    /// Refuses a geometry that is not a GeoPackage geometry blob before the source's triggers
    /// meet it, with a message that says what it is, and one that does not fit the source's
    /// column (its declared type, Z and M); a single part for a Multi column goes up wrapped.
    /// - Returns: the action with its geometry as the source's column takes it.
    /// - Throws: ``RowRefusal``.
    func checkGeometry(of action: SourceAction, in table: SyncTable) throws -> SourceAction {
        guard let column = table.geometryColumn else { return action }
        let row: RowValues
        switch action {
        case .none, .delete: return action
        case .insert(let r), .update(let r): row = r
        }
        guard case .blob(let bytes)? = row[column], let index = row.columns.firstIndex(where: { table.isGeometry($0) }) else { return action }
        let decoded: GeoPackageBinary
        do { decoded = try GeoPackageBinary(bytes: bytes) } catch {
            let spatiaLite = bytes.count > 2 && bytes[0] == 0x00 && (bytes[1] == 0x00 || bytes[1] == 0x01) && bytes.last == 0xFE
            throw RowRefusal(message: """
                its \(column) is not a GeoPackage geometry blob\(spatiaLite ? " but a SpatiaLite one (GDAL's SQL functions write those; AsGPB() converts them)" : ""): \(error)
                """)
        }
        guard let declared = table.sourceGeometryType, declared.mismatch(decoded.geometry) != nil else { return action }
        guard let fitted = declared.conformed(decoded.geometry) else {
            throw RowRefusal(message: "its \(column) does not fit the source's column: \(declared.mismatch(decoded.geometry) ?? "")")
        }
        var values = row.values
        values[index] = .blob(GeoPackageBinary(geometry: fitted, srsID: decoded.srsID, envelopeKind: decoded.envelopeKind).encoded())
        let fittedRow = RowValues(columns: row.columns, values: values)
        if case .insert = action { return .insert(fittedRow) }
        return .update(fittedRow)
    }
}

extension RowCounts {
    mutating func add(_ other: RowCounts) {
        inserted += other.inserted
        updated += other.updated
        deleted += other.deleted
    }

    /// Counts a write the source took.
    mutating func count(_ write: SourceWrite) {
        switch write {
        case .insert: inserted += 1
        case .update: updated += 1
        case .delete: deleted += 1
        }
    }
}
