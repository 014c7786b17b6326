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
/// no change} at the source, for an attribute and for the geometry, under each policy, against
/// a GeoPackage source and a PostGIS one. The office's edits are made by its own client
/// (SQLite on the file; psql), and each cell checks the rows on both sides afterwards, the
/// source's read by that client too.
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

    /// The backends the matrix runs against (the in-memory one is held to the same behaviour by
    /// the suites of SourceBackendFixture).
    static let backends = [SourceBackend.geoPackage, .postgreSQL].filter(SourceBackend.available.contains)

    /// Every PostgreSQL cell syncs a copy of one PostGIS source and its package (a database
    /// made from it as a template, the package by VACUUM INTO): loading and enabling a source
    /// and cutting a package from it for each of the 144 cells would cost minutes.
    static let postGISStart = SharedSourceFixture { try SourceBackendFixture(.postgreSQL) }

    static func fixture(_ backend: SourceBackend) throws -> SourceBackendFixture {
        backend == .postgreSQL ? try postGISStart.copy() : try SourceBackendFixture(backend)
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

    @Test(arguments: cells, backends)
    func cell(_ cell: Cell, _ backend: SourceBackend) throws {
        let f = try Self.fixture(backend)
        let package = try f.base.openPackage(f.url)
        let same = Self.columns(cell.kind).same
        let rowID = try #require(try package.connection.scalar("SELECT globalid FROM airports WHERE name = ?",
                                                               [.text(Self.rowName)])?.stringValue)
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
        try Self.officeEdit(cell, rowID: rowID, in: f)
        let before = Sides(package: try contents(package.connection, "airports"), source: try f.sourceContents("airports"))
        let writesBefore = try f.sourceWrites()

        let conflict = Self.conflicts(cell)
        let report = try f.sync(policy: cell.policy)
        let after = Sides(package: try contents(package.connection, "airports"), source: try f.sourceContents("airports"))

        #expect(report.conflicts.isEmpty == !conflict, "\(report.conflicts)")
        if conflict && cell.policy == .fail {
            #expect(report.status == .stoppedOnConflicts)
            #expect(after.package == before.package)
            #expect(after.source == before.source)
            #expect(try f.sourceWrites() == writesBefore, "nothing was written at the source")
            let recorded = try ConflictStore.open(in: package.connection)
            #expect(recorded.count == report.conflicts.count && !recorded.isEmpty)
            return
        }
        #expect(report.status == .completed)
        Self.expectRows(cell, row: SQL.literal(rowID), before: before, after: after)
        #expect(try PackageChangeTracking(connection: package.connection).pendingChanges().isEmpty)
    }

    /// The airports of both sides by global id (keys and values as `contents` writes them).
    struct Sides {
        var package: [String: [String: String]]
        var source: [String: [String: String]]
    }

    /// What the matrix says: which cells conflict.
    static func conflicts(_ cell: Cell) -> Bool {
        switch (cell.package, cell.source) {
        case (.update, .updateSame), (.update, .delete): true
        case (.delete, .updateSame), (.delete, .updateOther), (.delete, .updateSameValue): true
        default: false
        }
    }

    /// Row R on both sides as the policy settles it; inserts travel both ways with their
    /// global ids; every package row equals its source row.
    static func expectRows(_ cell: Cell, row key: String, before: Sides, after: Sides) {
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
        let same = columns(cell.kind).same
        let expected: [String: String]?
        switch expect {
        case .absent: expected = nil
        case .package: expected = before.package[key]
        case .source: expected = before.source[key]
        case .merged:
            var row = before.source[key]
            row?[same] = before.package[key]?[same]
            expected = row
        }
        if expect != .absent { #expect(expected != nil, "row R was there to be kept") }
        #expect(after.package[key] == expected, "package row")
        #expect(after.source[key] == expected, "source row")

        let insertedInPackage = before.package.keys.filter { before.package[$0]?["name"] == "'Field strip'" }
        let insertedAtSource = before.source.keys.filter { before.source[$0]?["name"] == "'Office strip'" }
        #expect(insertedInPackage.count == (cell.package == .insert ? 1 : 0))
        #expect(insertedAtSource.count == (cell.source == .insert ? 1 : 0))
        for id in insertedInPackage {
            #expect(after.source[id] == before.package[id])
            #expect(after.package[id] == before.package[id])
        }
        for id in insertedAtSource { #expect(after.package[id] == before.source[id]) }
        for (id, row) in after.package { #expect(after.source[id] == row, "row \(id)") }
    }
}
