/// The end of a download: what the package holds only for rows that left it goes too.
import Geodatabase
import PackageFormat
import SQLite

extension SyncRun {
    /// Removes what the package holds only for rows that left it: the rows of related-only
    /// tables no row in the package relates to any more (its parent left the area or was
    /// deleted, on either side), and links whose either end is gone; rows with a pending local
    /// change stay (they go up first).
    /// - Returns: the rows that left, each with why.
    func removeRowsWithoutParent(scope: DownloadScope, leavingAlone leftAlone: Set<RowKey>) throws -> [DepartedRow] {
        var removed: [DepartedRow] = []
        func removeLinksWithMissingEnds() throws {
            for (mapping, globalIDs) in try mappingLinks.packageLinksWithMissingEnds() {
                for globalID in globalIDs where !leftAlone.contains(RowKey(mapping.name, globalID)) {
                    if try packageRows.delete(globalID, from: mapping) {
                        removed.append(DepartedRow(table: mapping.name, globalID: globalID, reason: "a row it links left the package"))
                    }
                }
            }
        }
        // Links of rows that left first, so that they no longer hold the rows they relate to.
        try removeLinksWithMissingEnds()
        var removedRelated = false
        for table in tables where scope.isRelatedOnly(table) {
            for globalID in try scope.packageRowsWithoutParent(of: table) where !leftAlone.contains(RowKey(table.name, globalID)) {
                if try packageRows.delete(globalID, from: table) {
                    removed.append(DepartedRow(table: table.name, globalID: globalID, reason: "no row in the package relates to it any more"))
                    removedRelated = true
                }
            }
        }
        if removedRelated { try removeLinksWithMissingEnds() }
        return removed
    }
}
