import Foundation
import Testing
import TestSupport
import Geometry
import SQLite
@testable import Geodatabase

@Suite("GeoPackage functions: what GDAL's triggers call, answered as GDAL answers")
struct GeoPackageFunctionsTests {
    @Test("every park's ST_* answers equal GDAL's own functions on the same file")
    func matchesGDALOnEveryRow() throws {
        let path = TestData.url("ne_parks.gpkg").path
        let gdal = try OGRInfo.rows(path, sql: """
            SELECT fid, ST_MinX(geom) AS minx, ST_MaxX(geom) AS maxx, ST_MinY(geom) AS miny,
                   ST_MaxY(geom) AS maxy, ST_IsEmpty(geom) AS empty, ST_GeometryType(geom) AS type,
                   ST_SRID(geom) AS srid
            FROM parks ORDER BY fid
            """, dialect: "SQLite")
        let package = try GeoPackage(path: path, readOnly: true)
        let ours = try package.connection.query("""
            SELECT fid, ST_MinX(geom), ST_MaxX(geom), ST_MinY(geom), ST_MaxY(geom), ST_IsEmpty(geom),
                   ST_GeometryType(geom), ST_SRID(geom)
            FROM parks ORDER BY fid
            """)
        #expect(ours.count == 61)
        #expect(gdal.count == ours.count)
        for (theirs, row) in zip(gdal, ours) {
            #expect(theirs["FID"] == row[0].int64Value.map(String.init))
            for (column, value) in zip(["minx", "maxx", "miny", "maxy"], row[1...4]) {
                #expect(printedEqual(theirs[column], value.doubleValue ?? .nan), "fid \(row[0]) \(column): GDAL \(theirs[column] ?? "NULL"), ours \(value)")
            }
            #expect(theirs["empty"] == "0" && row[5] == 0)
            #expect(theirs["type"] == row[6].stringValue)
            #expect(theirs["srid"] == row[7].int64Value.map(String.init))
        }
    }

    @Test("NULL and non-blob give NULL; an empty geometry is empty and has no bounds")
    func nullAndEmpty() throws {
        let db = try Connection(path: ":memory:")
        try GeoPackage.registerFunctions(on: db)
        #expect(try db.query("SELECT ST_IsEmpty(NULL), ST_MinX(NULL), ST_GeometryType(NULL), ST_SRID(NULL), ST_MaxY(42), ST_IsEmpty('POINT(1 2)')")
            == [[nil, nil, nil, nil, nil, nil]])

        let empty = GeoPackageBinary(geometry: .multiPolygon(MultiPolygon([])), srsID: 4326).encoded()
        #expect(try db.query("SELECT ST_IsEmpty(?1), ST_MinX(?1), ST_MaxX(?1), ST_MinY(?1), ST_MaxY(?1), ST_GeometryType(?1), ST_SRID(?1)", [.blob(empty)])
            == [[1, nil, nil, nil, nil, "MULTIPOLYGON", 4326]])

        // A point as GDAL writes it, without a header envelope: the bounds come from the WKB.
        let point = GeoPackageBinary(geometry: .point(Point(x: -149.9, y: 61.2)), srsID: 4326, envelopeKind: .none).encoded()
        #expect(try db.query("SELECT ST_IsEmpty(?1), ST_MinX(?1), ST_MaxX(?1), ST_MinY(?1), ST_MaxY(?1), ST_GeometryType(?1)", [.blob(point)])
            == [[0, -149.9, -149.9, 61.2, 61.2, "POINT"]])
    }

    @Test("a malformed blob fails the statement, naming the function and the problem")
    func malformedBlob() throws {
        let db = try Connection(path: ":memory:")
        try GeoPackage.registerFunctions(on: db)
        let error = try #require(throws: SQLiteError.self) { try db.scalar("SELECT ST_MinX(x'0102030405060708')") }
        #expect(error.message.hasPrefix("ST_MinX(): "))
        #expect(error.message.lowercased().contains("magic"), "\(error)")
        #expect(error.sql == "SELECT ST_MinX(x'0102030405060708')")
    }

    @Test("GPKG_IsAssignable follows GDAL's type hierarchy", arguments: [
        ("MULTIPOLYGON", "MULTIPOLYGON", 1), ("multipolygon", "MULTIPOLYGON", 1),
        ("GEOMETRY", "POINT", 1), ("GEOMETRYCOLLECTION", "MULTIPOINT", 1),
        ("GEOMETRYCOLLECTION", "MULTILINESTRING", 1), ("GEOMETRYCOLLECTION", "MULTIPOLYGON", 1),
        ("GEOMETRYCOLLECTION", "POINT", 0), ("MULTIPOLYGON", "POLYGON", 0), ("POINT", "GEOMETRY", 0),
    ])
    func isAssignable(expected: String, actual: String, answer: Int64) throws {
        let db = try Connection(path: ":memory:")
        try GeoPackage.registerFunctions(on: db)
        #expect(try db.scalar("SELECT GPKG_IsAssignable(?, ?)", [.text(expected), .text(actual)]) == .integer(answer))
        #expect(try db.scalar("SELECT GPKG_IsAssignable(NULL, ?)", [.text(actual)]) == 0)
    }

    @Test("opening something that is not a GeoPackage says so, naming the file")
    func notAGeoPackage() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.path("missing.gpkg")
        let error = try #require(throws: GeodatabaseError.self) { try GeoPackage(path: missing) }
        #expect(error.kind == .notAGeoPackage)
        #expect(error.message == "\(missing): no such file")

        let plain = dir.path("plain.sqlite")
        try Connection(path: plain).execute("CREATE TABLE t(x)")
        let notGPKG = try #require(throws: GeodatabaseError.self) { try GeoPackage(path: plain) }
        #expect(notGPKG.message == "\(plain) is not a GeoPackage: it lacks the gpkg_contents or gpkg_spatial_ref_sys table")

        let junk = dir.path("junk.gpkg")
        try Data(repeating: 0x20, count: 2048).write(to: URL(fileURLWithPath: junk))
        let notDB = try #require(throws: GeodatabaseError.self) { try GeoPackage(path: junk) }
        #expect(notDB.message == "\(junk) is not a GeoPackage: it is not an SQLite database")
    }
}
