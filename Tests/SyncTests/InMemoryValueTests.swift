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

    @Test(arguments: SourceBackend.allCases)
    func latin1TextGoesUpAndComesDownByteForByte(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        let package = try f.base.openPackage(f.url).connection
        try package.execute("UPDATE airports SET gps_code = CAST(x'\(Self.hex(Self.doña))' AS TEXT) WHERE name = 'Kodiak'")
        #expect(try f.sync().uploaded.updated == 1)
        #expect(try f.sourceValue("airports", named: "Kodiak", "gps_code") == .textBytes(Self.doña))

        try f.officeUpdate("airports", named: "Anchorage Int'l", set: "gps_code", to: .textBytes(Self.señor))
        #expect(try f.sync().downloaded.updated == 1)
        #expect(try package.scalar("SELECT hex(gps_code) FROM airports WHERE name = 'Anchorage Int''l'") == .text(Self.hex(Self.señor)))
        #expect(try package.scalar("SELECT typeof(gps_code) FROM airports WHERE name = 'Anchorage Int''l'") == "text")
        #expect(try f.verify().differences.isEmpty)
    }

    @Test(arguments: SourceBackend.allCases)
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
}
