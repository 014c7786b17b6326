import Foundation
import Testing
import SQLite
import TestSupport
@testable import Extract

/// A feature the area takes whole, in its own CRS and type, reaches the package as its source
/// stored it, although its geometry crossed the seam as WKB: the header comes back byte for
/// byte (GDAL's points without an envelope, its polygons with one, a polygon stored without one
/// still without).
@Suite struct StoredGeometryTests {
    init() { registerSourceDrivers() }

    func blobs(_ path: String, _ table: String) throws -> [[SQLiteValue]] {
        try Connection(path: path, mode: .readOnly).query("SELECT fid, geom FROM \(table) ORDER BY fid")
    }

    @Test func featuresInsideTheAreaKeepTheirSourceBytes() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "naturalearth.gpkg")
        // One polygon stored without an envelope in its header (which GeoPackage allows).
        let stripped = try pythonSQLite(source, """
            UPDATE countries SET geom = CAST(X'47500001' || substr(geom, 5, 4) || substr(geom, 41) AS BLOB) WHERE fid = 1
            """)
        #expect(stripped.status == 0, "\(stripped.stderr)")
        let output = dir.path("a.pkg")
        _ = try Extractor.create(ExtractRequest(area: "-180,-90,180,90", source: source, register: false, output: output))
        for table in ["cities", "countries"] {
            let kept = try blobs(output + "/data.gpkg", table)
            #expect(kept.count > 100, "\(table)")
            #expect(kept == (try blobs(source, table)), "\(table)")
        }
        // The points really are stored without an envelope (flags 0x01), the polygons with one.
        let db = try Connection(path: output + "/data.gpkg", mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM cities WHERE substr(geom, 4, 1) <> X'01'") == .integer(0))
        #expect(try db.scalar("SELECT group_concat(fid) FROM countries WHERE substr(geom, 4, 1) <> X'03'") == .text("1"))
    }
}
