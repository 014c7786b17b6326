import Testing
import Geometry

/// One-line summaries of geometries, counted by hand from the WKT.
@Suite struct GeometrySummaryTests {
    @Test(arguments: [
        ("POINT (1 2)", "POINT (1 vertex, envelope 1 2, 1 2)"),
        ("POINT Z (1 2 3)", "POINT Z (1 vertex, envelope 1 2, 1 2)"),
        ("POINT EMPTY", "POINT EMPTY"),
        ("LINESTRING M (0 0 1, 3 4 2)", "LINESTRING M (2 vertices, envelope 0 0, 3 4)"),
        ("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 1, 2 2, 1 1))", "POLYGON (9 vertices, envelope 0 0, 10 10)"),
        ("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))", "MULTIPOLYGON (1 part, 4 vertices, envelope 0 0, 1 1)"),
        ("MULTIPOINT ZM ((0 0 1 2), (-1.5 2.25 3 4))", "MULTIPOINT ZM (2 parts, 2 vertices, envelope -1.5 0, 0 2.25)"),
    ])
    func summary(wkt: String, expected: String) throws {
        let geometry = try Geometry(wkt: wkt)
        #expect(geometry.summary == expected)
    }
}
