/// The source side of each cell of the conflict matrix, made as the office makes it: SQLite on
/// the GeoPackage (a geometry as a GeoPackage blob), psql on PostGIS (a geometry by PostGIS's
/// own constructors).
import Foundation
import SQLite
import TestSupport

extension ConflictMatrixTests {
    /// The cell's edit at the source of row `rowID` (or the office's insert).
    static func officeEdit(_ cell: Cell, rowID: String, in f: SourceBackendFixture) throws {
        if cell.source == .insert { return try f.officeInsertAirport("Office strip", x: -152.0, y: 60.5) }
        if cell.source == .none { return }
        switch f.backend {
        case .postgreSQL: try f.postGIS!.psql(postGISEdit(cell, rowID: rowID))
        default: try geoPackageEdit(cell, rowID: rowID, in: try f.base.openSource().connection)
        }
    }

    static func geoPackageEdit(_ cell: Cell, rowID: String, in source: Connection) throws {
        let (same, other) = columns(cell.kind)
        switch cell.source {
        case .updateSame:
            try source.execute("UPDATE airports SET \"\(same)\" = ? WHERE globalid = ?", [sourceValue(cell.kind), .text(rowID)])
        case .updateOther:
            let value: SQLiteValue = other == "type" ? .text("closed") : .text("Anchorage (renamed)")
            try source.execute("UPDATE airports SET \"\(other)\" = ? WHERE globalid = ?", [value, .text(rowID)])
        case .updateSameValue:
            try source.execute("UPDATE airports SET \"\(same)\" = ? WHERE globalid = ?", [sameValueAgain(cell.kind), .text(rowID)])
        case .delete:
            try source.execute("DELETE FROM airports WHERE globalid = ?", [.text(rowID)])
        case .insert, .none: break
        }
    }

    /// The same edits as SQL for psql: the values of `sourceValue`, `packageValue` (the same
    /// point written another way: as WKT, where the sync writes WKB) and the other column's.
    static func postGISEdit(_ cell: Cell, rowID: String) -> String {
        let (same, other) = columns(cell.kind)
        let row = "WHERE globalid = \(SQL.literal(rowID))"
        switch (cell.source, cell.kind) {
        case (.updateSame, .attribute): return "UPDATE airports SET name = 'Anchorage (office)' \(row)"
        case (.updateSame, .geometry): return "UPDATE airports SET geom = ST_SetSRID(ST_MakePoint(-150.5, 61.2), 4326) \(row)"
        case (.updateOther, _):
            return "UPDATE airports SET \(other) = \(other == "type" ? "'closed'" : "'Anchorage (renamed)'") \(row)"
        case (.updateSameValue, .attribute): return "UPDATE airports SET \(same) = 'Ted Stevens Anchorage' \(row)"
        case (.updateSameValue, .geometry): return "UPDATE airports SET geom = ST_GeomFromText('POINT(-150 61.5)', 4326) \(row)"
        case (.delete, _): return "DELETE FROM airports \(row)"
        case (.insert, _), (.none, _): return "SELECT 1"
        }
    }
}
