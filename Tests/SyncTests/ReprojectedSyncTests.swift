import Foundation
import Geodatabase
import Geometry
import SQLite
@testable import Sync
import TestSupport
import Testing

/// PROJ's cs2cs answers (testdata/fixtures/sync/record-sync-oracles.sh).
enum SyncOracles {
    static let values: [String: [Double]] = {
        guard let text = try? String(contentsOf: TestData.fixture("sync/sync_oracles.txt"), encoding: .utf8) else { return [:] }
        var values: [String: [Double]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard let key = parts.first else { continue }
            values[String(key)] = parts.dropFirst().compactMap { Double($0) }
        }
        return values
    }()

    static func point(_ key: String) throws -> (x: Double, y: Double) {
        let xy = try #require(values[key], "oracle value \(key) missing from sync_oracles.txt")
        try #require(xy.count == 2)
        return (xy[0], xy[1])
    }
}

/// A point geometry's coordinates and srs_id, read from a geometry column.
func storedPoint(_ connection: Connection, _ sql: String) throws -> (x: Double, y: Double, srsID: Int32) {
    guard case .blob(let bytes)? = try connection.scalar(sql) else {
        Issue.record("no geometry for \(sql)")
        throw SimulatedCrash()
    }
    let decoded = try GeoPackageBinary(bytes: bytes)
    guard case .point(let point) = decoded.geometry, let c = point.coordinate else {
        Issue.record("not a point: \(decoded.geometry.wkt)")
        throw SimulatedCrash()
    }
    return (c.x, c.y, decoded.srsID)
}

/// Layers reprojected by `create --crs`, and areas given in another CRS than the layers'.
@Suite struct ReprojectedSyncTests {
    @Test func attributeEditsLeaveTheSourceGeometryUntouchedAndMovesGoBackInTheSourceCRS() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--crs", "EPSG:3338"])
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        let anc = try storedPoint(package, "SELECT geom FROM airports WHERE iata_code = 'ANC'")
        let ancExpected = try SyncOracles.point("albers_of_anc")
        #expect(anc.srsID == 3338 && abs(anc.x - ancExpected.x) < 1e-6 && abs(anc.y - ancExpected.y) < 1e-6)

        let blobs = "SELECT group_concat(hex(geom), ',') FROM (SELECT geom FROM %@ ORDER BY globalid)"
        let parksBefore = try source.scalar(String(format: blobs, "parks"))
        let airportsBefore = try source.scalar(String(format: blobs, "airports"))
        let packageANCBefore = try package.scalar("SELECT hex(geom) FROM airports WHERE iata_code = 'ANC'")
        // Attribute edits only, one on a polygon and one on a point layer.
        try package.execute("UPDATE parks SET unit_name = 'Denali (field)' WHERE unit_code = 'DENA'")
        try package.execute("UPDATE airports SET type = 'hub' WHERE iata_code = 'ANC'")
        let first = try fixture.sync(url)
        #expect(first.status == .completed && first.uploaded.updated == 2, "\(first.conflicts)")
        #expect(try source.scalar("SELECT unit_name FROM parks WHERE unit_code = 'DENA'") == "Denali (field)")
        #expect(try source.scalar("SELECT type FROM airports WHERE iata_code = 'ANC'") == "hub")
        // Not one geometry blob of the source was rewritten, and the package kept its own.
        #expect(try source.scalar(String(format: blobs, "parks")) == parksBefore)
        #expect(try source.scalar(String(format: blobs, "airports")) == airportsBefore)
        #expect(try package.scalar("SELECT hex(geom) FROM airports WHERE iata_code = 'ANC'") == packageANCBefore)

        // A move in the package's CRS arrives in the source's, where cs2cs puts it.
        let moved = GeoPackageBinary(geometry: .point(Point(x: -200_000, y: 1_000_000)), srsID: 3338).encoded()
        try package.execute("UPDATE airports SET geom = ? WHERE iata_code = 'ADQ'", [.blob(moved)])
        // And a move at the source comes down in the package's CRS.
        try source.execute("UPDATE airports SET geom = ? WHERE iata_code = 'FAI'", [pointBlob(-147.5, 64.5)])
        let second = try fixture.sync(url)
        #expect(second.status == .completed && second.uploaded.updated == 1 && second.downloaded.updated == 1)
        let kodiak = try storedPoint(source, "SELECT geom FROM airports WHERE iata_code = 'ADQ'")
        let kodiakExpected = try SyncOracles.point("lonlat_of_albers_-200000_1000000")
        #expect(kodiak.srsID == 4326)
        #expect(abs(kodiak.x - kodiakExpected.x) < 1e-9 && abs(kodiak.y - kodiakExpected.y) < 1e-9, "\(kodiak) vs cs2cs \(kodiakExpected)")
        let fairbanks = try storedPoint(package, "SELECT geom FROM airports WHERE iata_code = 'FAI'")
        let fairbanksExpected = try SyncOracles.point("albers_of_-147.5_64.5")
        #expect(fairbanks.srsID == 3338)
        #expect(abs(fairbanks.x - fairbanksExpected.x) < 1e-6 && abs(fairbanks.y - fairbanksExpected.y) < 1e-6,
                "\(fairbanks) vs cs2cs \(fairbanksExpected)")
        // GDAL reads the uploaded point where cs2cs put it, and the source still validates.
        let ogr = try runProcess("/usr/bin/ogrinfo", ["-q", "-ro", fixture.sourcePath, "-sql",
                                                      "SELECT ST_X(geom) AS x, ST_Y(geom) AS y FROM airports WHERE iata_code = 'ADQ'"])
        let xy = ogr.stdout.split(separator: "\n").compactMap { line -> Double? in
            guard let value = line.split(separator: "=").last, line.contains("(Real)") else { return nil }
            return Double(value.trimmingCharacters(in: .whitespaces))
        }
        #expect(xy.count == 2 && abs(xy[0] - kodiakExpected.x) < 1e-9 && abs(xy[1] - kodiakExpected.y) < 1e-9, "\(ogr.stdout)")
        // Nothing left to sync: the rows agree, and a third sync moves nothing.
        let third = try fixture.sync(url)
        #expect(third.uploaded.total == 0 && third.downloaded.total == 0 && third.leftArea == 0)
        try fixture.expectGDALValid(url)
    }

    @Test func offlineInsertAndDeleteInAReprojectedLayer() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--crs", "EPSG:3338"])
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        let point = GeoPackageBinary(geometry: .point(Point(x: -200_000, y: 1_000_000)), srsID: 3338).encoded()
        try package.execute("INSERT INTO airports (name, iata_code, type, geom) VALUES ('Field strip', 'FLD', 'small', ?)",
                            [.blob(point)])
        try package.execute("DELETE FROM airports WHERE iata_code = 'ANC'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.inserted == 1 && report.uploaded.deleted == 1)
        #expect(try source.scalar("SELECT count(*) FROM airports WHERE iata_code = 'ANC'") == 0)
        let inserted = try storedPoint(source, "SELECT geom FROM airports WHERE iata_code = 'FLD'")
        let expected = try SyncOracles.point("lonlat_of_albers_-200000_1000000")
        #expect(inserted.srsID == 4326 && abs(inserted.x - expected.x) < 1e-9 && abs(inserted.y - expected.y) < 1e-9)
        try fixture.expectGDALValid(url)
    }

    @Test func anAreaInAlbersSelectsSourceRowsAsCreateDid() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(box: (-400_000, 700_000, 700_000, 1_800_000), arguments: ["--area-crs", "EPSG:3338"])
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        let airports = try package.scalar("SELECT count(*) FROM airports")?.int64Value ?? 0
        let parks = try package.scalar("SELECT count(*) FROM parks")?.int64Value ?? 0
        #expect(airports > 0 && parks > 0)

        // Every source row changes: sync judges each against the area, and keeps what create took.
        try source.execute("UPDATE airports SET type = type || ''")
        try source.execute("UPDATE parks SET unit_name = unit_name || ''")
        let touched = try fixture.sync(url)
        #expect(touched.status == .completed && touched.leftArea == 0 && touched.downloaded.inserted == 0, "\(touched)")
        #expect(try package.scalar("SELECT count(*) FROM airports")?.int64Value == airports)
        #expect(try package.scalar("SELECT count(*) FROM parks")?.int64Value == parks)

        // The box's top edge is straight in Albers: north of the straight line between its corners in
        // longitude and latitude, a point 10 km inside it is in the area, one 10 km outside is not.
        let inside = try SyncOracles.point("lonlat_of_albers_150000_1790000")
        let outside = try SyncOracles.point("lonlat_of_albers_150000_1810000")
        let west = try SyncOracles.point("lonlat_of_albers_-400000_1800000")
        let east = try SyncOracles.point("lonlat_of_albers_700000_1800000")
        let chord = west.y + (inside.x - west.x) / (east.x - west.x) * (east.y - west.y)
        try #require(inside.y > chord + 0.2, "the point must lie north of the corners' line for the test to mean anything")
        for code in ["SCC", "BRW"] {
            #expect(try package.scalar("SELECT count(*) FROM airports WHERE iata_code = ?", [.text(code)]) == 0)
        }
        try source.execute("UPDATE airports SET geom = ? WHERE iata_code = 'SCC'", [pointBlob(inside.x, inside.y)])
        try source.execute("UPDATE airports SET geom = ? WHERE iata_code = 'BRW'", [pointBlob(outside.x, outside.y)])
        let moved = try fixture.sync(url)
        #expect(moved.downloaded.inserted == 1)
        #expect(try package.scalar("SELECT count(*) FROM airports WHERE iata_code = 'SCC'") == 1)
        #expect(try package.scalar("SELECT count(*) FROM airports WHERE iata_code = 'BRW'") == 0)
    }

    @Test func aReprojectedPackageWithAnAlbersArea() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(box: (-400_000, 700_000, 700_000, 1_800_000),
                                          arguments: ["--area-crs", "EPSG:3338", "--crs", "EPSG:3338"])
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        let inside = try SyncOracles.point("lonlat_of_albers_150000_1790000")
        try source.execute("UPDATE airports SET geom = ? WHERE iata_code = 'SCC'", [pointBlob(inside.x, inside.y)])
        #expect(try fixture.sync(url).downloaded.inserted == 1)
        let deadhorse = try storedPoint(package, "SELECT geom FROM airports WHERE iata_code = 'SCC'")
        #expect(deadhorse.srsID == 3338 && abs(deadhorse.x - 150_000) < 1e-4 && abs(deadhorse.y - 1_790_000) < 1e-4)
    }
}
