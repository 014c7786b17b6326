/// The download of a sync, row by row: source rows into the package, with the rows they relate
/// (the order is `SyncDownloadTiers.swift`'s, the removal of what no longer belongs
/// `DownloadRemoval.swift`'s).
import Geodatabase
import PackageFormat
import SQLite

extension SyncRun {
    /// Makes the package's row of that global id what the source has: updated or inserted when
    /// the source row is in the area, removed when it left it or was deleted.
    /// - Returns: whether the package changed.
    @discardableResult
    func bringSourceRow(_ globalID: String, table: SyncTable, scope: DownloadScope, run: inout SyncRunState,
                        counts: Bool) throws -> Bool {
        if run.leftAlone.contains(RowKey(table.name, globalID)) {
            run.deferred.insert(RowKey(table.name, globalID))
            return false
        }
        guard let found = try sourceRows.row(globalID, in: table) else {
            let deleted = try packageRows.delete(globalID, from: table)
            if deleted && counts { run.report.downloaded.deleted += 1 }
            return deleted
        }
        // A link to a related-only row the package lacks brings that row first, when it links
        // it to a row the package has (the row then belongs).
        if mappingLinks.isMapping(table) {
            for end in try mappingLinks.sourceEnds(of: found, of: table) where scope.isRelatedOnly(end.table) {
                if try packageRows.row(end.globalID, in: end.table) == nil {
                    try bringSourceRow(end.globalID, table: end.table, scope: scope, run: &run, counts: true)
                }
            }
        }
        guard let row = try downloadForm(of: found, in: table, scope: scope) else {
            let removed = try packageRows.delete(globalID, from: table)
            if removed {
                let reason = try mappingLinks.inPackage(sourceRow: found, of: table).flatMap { try scope.reasonOutside($0, of: table) }
                    ?? "the package lacks a row it links"
                run.report.left.append(DepartedRow(table: table.name, globalID: globalID, reason: reason))
            }
            return removed
        }
        if let existing = try packageRows.row(globalID, in: table) {
            let valueColumns = table.valueColumns
            let differs = valueColumns.contains { !comparator.equal(table, $0, existing[$0] ?? .null, row[$0] ?? .null) }
            guard differs else { return false }
            // The row becomes the source's, but only the columns whose stored values are not
            // identical are set: an untouched geometry left out of the UPDATE spares the
            // package's R-tree triggers rewriting its entry.
            let rewritten = valueColumns.filter { existing[$0] != row[$0] }
            let written = try writeFreeingUniqueValues(globalID, in: table, scope: scope, run: &run) {
                try packageRows.update(globalID, set: RowValues(columns: rewritten, values: rewritten.map { row[$0] ?? .null }), in: table)
            }
            guard written else { return false }
            if counts { run.report.downloaded.updated += 1 }
            // A new key value relates the row to other rows: those the package takes only for
            // it come too (the rows of the old value leave once nothing relates to them).
            if relationKeys(of: table).contains(where: { !comparator.equal(table, $0, existing[$0] ?? .null, row[$0] ?? .null) }) {
                try bringRelated(to: found, of: table, scope: scope, run: &run)
            }
        } else {
            let written = try writeFreeingUniqueValues(globalID, in: table, scope: scope, run: &run) {
                try packageRows.insert(row, into: table)
            }
            guard written else { return false }
            if counts { run.report.downloaded.inserted += 1 }
            try bringRelated(to: found, of: table, scope: scope, run: &run)
        }
        return true
    }

    /// Brings back a row this sync uploaded: the package takes the source's row. When the
    /// upload merged the local edit with source changes (the source keeps columns of its own,
    /// or won a conflict), what came down is a downloaded row and is counted as one.
    func bringUploadedRow(_ globalID: String, table: SyncTable, scope: DownloadScope, run: inout SyncRunState,
                          merged: Bool) throws {
        guard merged else {
            _ = try bringSourceRow(globalID, table: table, scope: scope, run: &run, counts: false)
            return
        }
        let had = try packageRows.row(globalID, in: table) != nil
        let departed = run.report.left.count
        guard try bringSourceRow(globalID, table: table, scope: scope, run: &run, counts: false),
              run.report.left.count == departed else { return }  // a row that left is listed as such
        switch (had, try packageRows.row(globalID, in: table) != nil) {
        case (true, true): run.report.downloaded.updated += 1
        case (false, true): run.report.downloaded.inserted += 1
        case (true, false): run.report.downloaded.deleted += 1
        case (false, false): break
        }
    }

    /// The row the package holds for a source row (the global id and value columns): links
    /// with the package's keys of the rows they link, the geometry as the package stores it
    /// (clipped, reprojected); nil when the row does not belong in the package (outside the
    /// area or the filter, unrelated, a link whose ends the package lacks).
    func downloadForm(of found: RowValues, in table: SyncTable, scope: DownloadScope) throws -> RowValues? {
        guard let sourceRow = try mappingLinks.inPackage(sourceRow: found, of: table), try scope.contains(sourceRow, of: table) else {
            return nil
        }
        let columns = [table.globalIDColumn] + table.valueColumns
        var values = columns.map { sourceRow[$0] ?? .null }
        if let geometry = table.geometryColumn, let index = columns.firstIndex(of: geometry) {
            values[index] = try scope.packageGeometry(values[index], of: table,
                                                      globalID: found[table.globalIDColumn]?.stringValue ?? "")
        }
        return RowValues(columns: columns, values: values)
    }

    /// The columns of `table` that key relationships match on.
    func relationKeys(of table: SyncTable) -> [String] {
        let name = table.sqlName
        return relationships.flatMap { r -> [String] in
            guard case .keys = r.storage else { return [] }
            return r.ends.filter { SQLName($0.table) == name }.map(\.key)
        }.compactMap { key in table.valueColumns.first(name: SQLName(key)) }
    }

    /// A row new to the package (it entered the area, or is new at the source), or whose
    /// relationship key changed, brings the rows the package takes only because they are
    /// related to it, and its links, whether they changed at the source or not.
    /// - Parameter row: the row as the source has it (its keys are the source's).
    func bringRelated(to row: RowValues, of table: SyncTable, scope: DownloadScope, run: inout SyncRunState) throws {
        if mappingLinks.isMapping(table) { return }
        let name = table.sqlName
        for r in relationships {
            guard case .keys = r.storage else { continue }
            for end in r.ends where SQLName(end.table) == name {
                guard let otherTable = tablesByName[SQLName(end.otherTable)], scope.isRelatedOnly(otherTable),
                      let value = row[end.key], !value.isNull else { continue }
                for globalID in try sourceRows.globalIDs(in: otherTable, where: end.otherKey, is: value) {
                    try bringSourceRow(globalID, table: otherTable, scope: scope, run: &run, counts: true)
                }
            }
        }
        for (mapping, this, other) in mappingLinks.mappings(linking: table) {
            for link in try mappingLinks.sourceLinks(of: row, this: this, other: other, mapping: mapping) {
                if let otherID = link.other, scope.isRelatedOnly(other.table) {
                    try bringSourceRow(otherID, table: other.table, scope: scope, run: &run, counts: true)
                }
                try bringSourceRow(link.link, table: mapping, scope: scope, run: &run, counts: true)
            }
        }
    }
}
