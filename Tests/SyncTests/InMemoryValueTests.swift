import Foundation
import Geodatabase
import Geometry
import SQLite
import SourceDrivers
@testable import Sync
import TestSupport
import Testing

/// Values that cross the seam as they are, with both drivers: text that is not UTF-8 (its
/// bytes), geometries of a reprojected layer (in the source's CRS, untouched by attribute edits).
@Suite struct InMemoryValueTests {
    /// "doña" and "señor" in Latin-1.
    static let doña: [UInt8] = [0x64, 0x6F, 0xF1, 0x61], señor: [UInt8] = [0x73, 0x65, 0xF1, 0x6F, 0x72]

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    @Test(arguments: SourceBackend.available)
    func latin1TextGoesUpAndComesDownByteForByte(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        let package = try f.base.openPackage(f.url).connection
        try package.execute("UPDATE airports SET gps_code = CAST(x'\(Self.hex(Self.doña))' AS TEXT) WHERE name = 'Kodiak'")
        if backend == .postgreSQL { return try expectLatin1Refused(f, package) }
        #expect(try f.sync().uploaded.updated == 1)
        #expect(try f.sourceValue("airports", named: "Kodiak", "gps_code") == .textBytes(Self.doña))

        try f.officeUpdate("airports", named: "Anchorage Int'l", set: "gps_code", to: .textBytes(Self.señor))
        #expect(try f.sync().downloaded.updated == 1)
        #expect(try package.scalar("SELECT hex(gps_code) FROM airports WHERE name = 'Anchorage Int''l'") == .text(Self.hex(Self.señor)))
        #expect(try package.scalar("SELECT typeof(gps_code) FROM airports WHERE name = 'Anchorage Int''l'") == "text")
        #expect(try f.verify().differences.isEmpty)
    }

    /// A UTF8 database cannot store Latin-1 bytes: the row is a constraint conflict naming it,
    /// the other edits go up, and the package keeps the edit as it was, byte for byte.
    func expectLatin1Refused(_ f: SourceBackendFixture, _ package: Connection) throws {
        try ogrSQL(f.data, "UPDATE airports SET type = 'edited' WHERE name = 'Anchorage Int''l'")
        let report = try f.sync(policy: .sourceWins)
        #expect(report.status == .completedWithPending, "\(report)")
        let conflict = try #require(report.conflicts.first)
        #expect(report.conflicts.count == 1 && conflict.kind == .constraint && conflict.message?.contains("encoding") == true,
                "\(report.conflicts)")
        #expect(try f.sourceValue("airports", named: "Anchorage Int'l", "type") == .text("edited"))
        #expect(try f.sourceValue("airports", named: "Kodiak", "gps_code") != .textBytes(Self.doña))
        #expect(try package.scalar("SELECT hex(gps_code) FROM airports WHERE name = 'Kodiak'") == .text(Self.hex(Self.doña)))
    }

    @Test(arguments: SourceBackend.available)
    func aReprojectedLayerMovesInTheSourceCRSAndAttributeEditsLeaveGeometriesAlone(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend, arguments: ["--crs", "EPSG:3338"])
        let package = try f.base.openPackage(f.url).connection
        let anchorageBefore = try f.sourceValue("airports", named: "Anchorage Int'l", "geom")
        try package.execute("UPDATE airports SET type = 'hub' WHERE iata_code = 'ANC'")
        let moved = GeoPackageBinary(geometry: .point(Point(x: -200_000, y: 1_000_000)), srsID: 3338).encoded()
        try package.execute("UPDATE airports SET geom = ? WHERE iata_code = 'ADQ'", [.blob(moved)])
        let report = try f.sync()
        #expect(report.status == .completed && report.uploaded.updated == 2, "\(report)")
        #expect(try f.sourceValue("airports", named: "Anchorage Int'l", "geom") == anchorageBefore)
        #expect(try f.sourceValue("airports", named: "Anchorage Int'l", "type") == .text("hub"))
        guard case .geometry(let kodiak)? = try f.sourceValue("airports", named: "Kodiak", "geom"),
              case .point(let point) = try kodiak.geometry(), let c = point.coordinate else {
            Issue.record("Kodiak has no point at the source")
            return
        }
        let expected = try SyncOracles.point("lonlat_of_albers_-200000_1000000")
        #expect(kodiak.srsID == 4326 && abs(c.x - expected.x) < 1e-9 && abs(c.y - expected.y) < 1e-9, "\(c) vs cs2cs \(expected)")
        #expect(try f.verify().differences.isEmpty)
    }

    /// A source that numbers its coordinate systems its own way (a database's SRID 99 for
    /// EPSG:4326, where the package's GeoPackage says 4326): geometries go up in the source's
    /// numbering and come down in the package's.
    @Test func aSourceNumberingItsCRSOtherwiseGetsAndGivesGeometriesInItsOwnNumbering() throws {
        let f = try SourceBackendFixture(.memory)
        f.memory.renumberSRS(4326, as: 99)
        let package = try f.base.openPackage(f.url).connection
        try package.execute("UPDATE airports SET geom = ? WHERE name = 'Kodiak'", [pointBlob(-152.5, 57.9)])
        try f.officeUpdate("airports", named: "Anchorage Int'l", set: "geom",
                           to: .geometry(GeometryValue(.point(Point(x: -150.1, y: 61.2)), srsID: 99)))
        let report = try f.sync()
        #expect(report.status == .completed && report.uploaded.updated == 1 && report.downloaded.updated == 1, "\(report)")
        guard case .geometry(let kodiak)? = try f.sourceValue("airports", named: "Kodiak", "geom") else {
            Issue.record("Kodiak has no geometry at the source")
            return
        }
        let kodiakPoint = try kodiak.geometry()
        #expect(kodiak.srsID == 99 && kodiakPoint == .point(Point(x: -152.5, y: 57.9)), "\(kodiak)")
        let anchorage = try storedPoint(package, "SELECT geom FROM airports WHERE name = 'Anchorage Int''l'")
        #expect(anchorage.srsID == 4326 && anchorage.x == -150.1 && anchorage.y == 61.2, "\(anchorage)")
        let verified = try f.verify()
        #expect(verified.differences.isEmpty, "\(verified.differences)")
        let again = try f.sync()
        #expect(again.uploaded.total == 0 && again.downloaded.total == 0, "\(again)")
    }
}

extension InMemorySource {
    /// Renumbers a coordinate system: its entry, every table's geometry column and geometry.
    func renumberSRS(_ old: Int64, as new: Int64) {
        state.crs[new] = state.crs.removeValue(forKey: old).map { info in
            var renumbered = info
            renumbered.srsID = new
            return renumbered
        }
        for index in state.tables.indices where state.tables[index].shape.geometry?.srsID == old {
            state.tables[index].shape.geometry?.srsID = new
            for (globalID, row) in state.tables[index].rows {
                for (column, value) in row {
                    guard case .geometry(var geometry) = value, geometry.srsID == old else { continue }
                    geometry.srsID = new
                    state.tables[index].rows[globalID]?[column] = .geometry(geometry)
                }
            }
        }
    }
}
