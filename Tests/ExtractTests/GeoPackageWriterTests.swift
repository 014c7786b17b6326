import Foundation
import Testing
import Geodatabase
import SQLite
import Geometry
import TestSupport
@testable import Extract

@Suite struct GeoPackageWriterTests {
    static let validator = GDALValidator.script

    /// Copies the demo parks row by row (blobs unchanged) and lets GDAL judge the result.
    @Test func copiedTablePassesGDALValidator() throws {
        let dir = try TemporaryDirectory()
        let source = try Connection(path: TestData.url("demo/alaska_source.gpkg").path, mode: .readOnly)
        let createSQL = try #require(try source.scalar("SELECT sql FROM sqlite_master WHERE name = 'parks'")?.stringValue)
        let columns = try source.query("SELECT name FROM pragma_table_info('parks')").compactMap { $0[0].stringValue }
        let table = PackageTable(name: "parks", dataType: "features", identifier: "parks", description: nil,
                                 createSQL: createSQL, columns: columns, primaryKey: "fid",
                                 geometry: .init(name: "geom", geometryTypeName: "MULTIPOLYGON", srsID: 4326, z: 0, m: 0))
        let path = dir.path("data.gpkg")
        let writer = try GeoPackageWriter(path: path)
        try writer.createTable(table)
        let rows = try source.query("""
            SELECT p.*, r.minx, r.maxx, r.miny, r.maxy FROM parks p JOIN rtree_parks_geom r ON r.id = p.fid
            """)
        for row in rows {
            let n = columns.count
            let e = Envelope(minX: row[n].doubleValue!, minY: row[n + 2].doubleValue!,
                             maxX: row[n + 1].doubleValue!, maxY: row[n + 3].doubleValue!)
            try writer.insert(into: "parks", Array(row[0..<n]), envelope: e)
        }
        let (count, extent) = writer.summary(of: "parks")
        try writer.finish()
        try writer.commit()
        #expect(count == 13)
        #expect(extent != nil)
        let result = try runProcess("/usr/bin/python3", [Self.validator, path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
        let info = try runProcess("ogrinfo", ["-so", "-al", path])
        #expect(info.status == 0)
        #expect(info.stdout.contains("Feature Count: 13"))
    }

    /// A mapping table's global id column is found whatever its letter case (so that its
    /// links are tracked), and only in the table asked about.
    @Test func hasColumnIgnoresLetterCase() throws {
        let dir = try TemporaryDirectory()
        let writer = try GeoPackageWriter(path: dir.path("data.gpkg"))
        try writer.execute("CREATE TABLE links (base_id INTEGER, related_id INTEGER, GlobalID TEXT)")
        try writer.execute("CREATE TABLE plain (base_id INTEGER, related_id INTEGER)")
        #expect(try writer.hasColumn(named: "globalid", in: "links"))
        #expect(try writer.hasColumn(named: "GLOBALID", in: "LINKS"))
        #expect(try !writer.hasColumn(named: "globalid", in: "plain"))
        #expect(try !writer.hasColumn(named: "globalid", in: "missing"))
    }
}
