import Foundation
import Geometry
import Testing
import TestSupport
@testable import PostgreSQL

@Suite("PostGIS geometries as EWKB", .needsPostgreSQL)
struct PostGISTests {
    /// The WKB GDAL reads from the GeoPackage, by fid: the oracle.
    private func gdalWKB(_ path: String) throws -> [Int: [UInt8]] {
        let result = try runProcess("ogrinfo", ["-ro", "-q", path, "-dialect", "sqlite", "-sql",
                                                "SELECT CAST(fid AS TEXT) AS park_fid, hex(ST_AsBinary(geom)) AS wkb FROM parks"])
        #expect(result.status == 0, "\(result.stderr)")
        var byFID: [Int: [UInt8]] = [:]
        var fid: Int?
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0].hasPrefix("park_fid") { fid = Int(parts[1]) }
            if parts[0].hasPrefix("wkb"), let fid {
                guard let bytes = Array(parts[1].utf8).withUnsafeBufferPointer({ Hex.decode($0) }) else {
                    throw TestSupportError("ogrinfo's WKB of fid \(fid) is not hex: \(parts[1].prefix(40))")
                }
                byFID[fid] = bytes
            }
        }
        return byFID
    }

    @Test("parks loaded by ogr2ogr read back through EWKB equal to what GDAL reads from the GeoPackage")
    func ogr2ogrLoadedParks() throws {
        let table = PostgreSQLTestServer.uniqueName("parks")
        let source = TestData.url("ne_parks.gpkg").path
        let load = try runProcess("ogr2ogr", ["-f", "PostgreSQL", "PG:\(PostgreSQLTestServer.superuser)", source, "parks",
                                              "-nln", table, "-lco", "GEOMETRY_NAME=geom", "-lco", "FID=fid",
                                              "-preserve_fid"])
        try #require(load.status == 0, "\(load.stderr)")
        let db = try connectToTestDatabase()
        defer { try? db.execute("DROP TABLE \(table)") }
        let expected = try gdalWKB(source)
        #expect(expected.count == 61)

        var compared = 0
        try db.forEachRow("SELECT fid, ST_AsEWKB(geom), ST_SRID(geom), geom FROM \(table) ORDER BY fid") { row in
            let fid = try row.int(0)!
            let ewkb = try row.bytes(1)!
            #expect(ewkb[4] & 0x20 != 0, "EWKB carries the SRID flag")
            #expect(try row.int(2) == 4326)
            let geometry = try Geometry(wkb: ewkb)
            // The geometry column's own text form is hex EWKB too.
            #expect(try Geometry(wkb: row.bytes(3)!) == geometry)
            let oracle = try #require(expected[fid], "fid \(fid) missing from GDAL's reading")
            #expect(geometry == (try Geometry(wkb: oracle)), "fid \(fid)")
            #expect(geometry.wkb() == oracle, "fid \(fid): same bytes as GDAL's ISO WKB")
            compared += 1
        }
        #expect(compared == expected.count)
    }

    @Test("EWKB with Z, M, ZM and an SRID decodes as PostGIS's ISO WKB and as the WKT it came from", arguments: [
        "POINT Z (1 2 3)", "POINT M (1 2 4)", "LINESTRING ZM (0 0 1 2, 3 4 5 6)",
        "MULTIPOLYGON (((0 0, 4 0, 4 4, 0 0)), ((10 10, 11 10, 11 11, 10 10)))",
        "GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1))", "POINT EMPTY",
    ])
    func dimensions(_ wkt: String) throws {
        let db = try connectToTestDatabase()
        let row = try #require(try db.queryFirst(
            "SELECT ST_AsEWKB(g), ST_AsBinary(g) FROM ST_SetSRID(ST_GeomFromText($1), 3857) AS g", [.text(wkt)]))
        let fromEWKB = try Geometry(wkb: row.bytes(0)!)
        #expect(fromEWKB == (try Geometry(wkb: row.bytes(1)!)))
        #expect(fromEWKB == (try Geometry(wkt: wkt)))
    }
}
