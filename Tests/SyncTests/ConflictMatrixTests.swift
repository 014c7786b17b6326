import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Every cell of the conflict matrix: {insert, update, delete, no change} in the package
/// against {insert, update of the same column, of another column, to the same value, delete,
/// no change} at the source, for an attribute and for the geometry, under each policy. Each
/// checks the rows on both sides afterwards.
@Suite struct ConflictMatrixTests {
    enum PackageOp: String, CaseIterable, Sendable { case insert, update, delete, none }
    enum SourceOp: String, CaseIterable, Sendable { case insert, updateSame, updateOther, updateSameValue, delete, none }
    enum Kind: String, CaseIterable, Sendable { case attribute, geometry }

    /// Anchorage Int'l: inside the test area.
    static let rowName = "Anchorage Int'l"

    struct Cell: Sendable, CustomStringConvertible {
        var package: PackageOp
        var source: SourceOp
        var kind: Kind
        var policy: ConflictPolicy
        var description: String { "\(package)/\(source)/\(kind)/\(policy.rawValue)" }
    }

    static let cells: [Cell] = PackageOp.allCases.flatMap { p in
        SourceOp.allCases.flatMap { s in
            Kind.allCases.flatMap { k in ConflictPolicy.allCases.map { Cell(package: p, source: s, kind: k, policy: $0) } }
        }
    }

    /// The column each side edits, and the other column.
    static func columns(_ kind: Kind) -> (same: String, other: String) {
        kind == .attribute ? ("name", "type") : ("geom", "name")
    }

    static func packageValue(_ kind: Kind) -> SQLiteValue {
        kind == .attribute ? .text("Ted Stevens Anchorage") : pointBlob(-150.0, 61.5)
    }

    static func sourceValue(_ kind: Kind) -> SQLiteValue {
        kind == .attribute ? .text("Anchorage (office)") : pointBlob(-150.5, 61.2)
    }

    /// The package's value written differently: GDAL-like blob with an envelope for geometry.
    static func sameValueAgain(_ kind: Kind) -> SQLiteValue {
        kind == .attribute ? packageValue(kind) : pointBlob(-150.0, 61.5, envelope: .xy)
    }

    @Test(arguments: cells)
    func cell(_ cell: Cell) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url)
        let source = try fixture.openSource()
        let (same, other) = Self.columns(cell.kind)
        let rowID = try #require(try source.connection.scalar("SELECT globalid FROM airports WHERE name = ?", [.text(Self.rowName)])?.stringValue)

        switch cell.package {
        case .insert:
            try package.connection.execute("INSERT INTO airports (geom, name, type) VALUES (?, 'Field strip', 'small')",
                                           [pointBlob(-151.0, 60.0)])
        case .update:
            try package.connection.execute("UPDATE airports SET \"\(same)\" = ? WHERE globalid = ?",
                                           [Self.packageValue(cell.kind), .text(rowID)])
        case .delete:
            try package.connection.execute("DELETE FROM airports WHERE globalid = ?", [.text(rowID)])
        case .none: break
        }
        switch cell.source {
        case .insert:
            try source.connection.execute("INSERT INTO airports (geom, name, type) VALUES (?, 'Office strip', 'small')",
                                          [pointBlob(-152.0, 60.5)])
        case .updateSame:
            try source.connection.execute("UPDATE airports SET \"\(same)\" = ? WHERE globalid = ?",
                                          [Self.sourceValue(cell.kind), .text(rowID)])
        case .updateOther:
            let value: SQLiteValue = other == "type" ? .text("closed") : .text("Anchorage (renamed)")
            try source.connection.execute("UPDATE airports SET \"\(other)\" = ? WHERE globalid = ?", [value, .text(rowID)])
        case .updateSameValue:
            try source.connection.execute("UPDATE airports SET \"\(same)\" = ? WHERE globalid = ?",
                                          [Self.sameValueAgain(cell.kind), .text(rowID)])
        case .delete:
            try source.connection.execute("DELETE FROM airports WHERE globalid = ?", [.text(rowID)])
        case .none: break
        }
        let packageBefore = try contents(package.connection, "airports")
        let sourceBefore = try contents(source.connection, "airports")
        let insertedInPackage = packageBefore.keys.filter { packageBefore[$0]?["name"] == "'Field strip'" }
        let insertedAtSource = sourceBefore.keys.filter { id in
            sourceBefore[id]?["name"] == "'Office strip'"
        }

        // What the matrix says.
        let conflict: Bool
        switch (cell.package, cell.source) {
        case (.update, .updateSame), (.update, .delete): conflict = true
        case (.delete, .updateSame), (.delete, .updateOther), (.delete, .updateSameValue): conflict = true
        default: conflict = false
        }
        let stopped = conflict && cell.policy == .fail

        let report = try fixture.sync(url, policy: cell.policy)
        let packageAfter = try contents(package.connection, "airports")
        let sourceAfter = try contents(source.connection, "airports")

        #expect(report.conflicts.isEmpty == !conflict, "\(report.conflicts)")
        if stopped {
            #expect(report.status == .stoppedOnConflicts)
            #expect(packageAfter == packageBefore)
            #expect(sourceAfter == sourceBefore)
            let recorded = try ConflictStore.open(in: package.connection)
            #expect(recorded.count == report.conflicts.count && !recorded.isEmpty)
            return
        }
        #expect(report.status == .completed)

        // Row R on both sides.
        enum Expect { case absent, package, source, merged }
        let expect: Expect
        switch (cell.package, cell.source) {
        case (.update, .updateSame): expect = cell.policy == .sourceWins ? .source : .package
        case (.update, .delete): expect = cell.policy == .sourceWins ? .absent : .package
        case (.update, _): expect = cell.source == .updateSameValue ? .package : .merged
        case (.delete, .updateSame), (.delete, .updateOther), (.delete, .updateSameValue):
            expect = cell.policy == .sourceWins ? .source : .absent
        case (.delete, _): expect = .absent
        case (_, .delete): expect = .absent
        default: expect = .source
        }
        let expected: [String: String]?
        switch expect {
        case .absent: expected = nil
        case .package: expected = packageBefore[rowID]
        case .source: expected = sourceBefore[rowID]
        case .merged:
            var row = sourceBefore[rowID]
            row?[same] = packageBefore[rowID]?[same]
            expected = row
        }
        #expect(packageAfter[rowID] == expected, "package row")
        #expect(sourceAfter[rowID] == expected, "source row")

        // Inserts travel both ways, with their global ids.
        for id in insertedInPackage {
            #expect(sourceAfter[id] == packageBefore[id])
            #expect(packageAfter[id] == packageBefore[id])
        }
        for id in insertedAtSource {
            #expect(packageAfter[id] == sourceBefore[id])
        }
        // Every package row equals its source row; nothing is left pending.
        for (id, row) in packageAfter { #expect(sourceAfter[id] == row, "row \(id)") }
        #expect(try PackageChangeTracking(connection: package.connection).pendingChanges().isEmpty)
    }
}
