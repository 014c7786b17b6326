@testable import GeoPackageSource
import Testing

/// Retyping the geometry column in a copied CREATE TABLE statement, as GDAL and others write them.
@Suite struct CreateTableSQLTests {
    @Test(arguments: [
        ("CREATE TABLE \"poly\" ( \"fid\" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, \"geom\" POLYGON, \"name\" TEXT)",
         "CREATE TABLE \"poly\" ( \"fid\" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, \"geom\" MULTIPOLYGON, \"name\" TEXT)"),
        ("CREATE TABLE t (fid INTEGER PRIMARY KEY, name TEXT DEFAULT 'geom POLYGON, x', [Geom] polygon NOT NULL)",
         "CREATE TABLE t (fid INTEGER PRIMARY KEY, name TEXT DEFAULT 'geom POLYGON, x', [Geom] MULTIPOLYGON NOT NULL)"),
        ("CREATE TABLE t (fid INTEGER PRIMARY KEY, -- geom POLYGON\n \"a\"\"b\" TEXT, `geom` POLYGON /* , geom */)",
         "CREATE TABLE t (fid INTEGER PRIMARY KEY, -- geom POLYGON\n \"a\"\"b\" TEXT, `geom` MULTIPOLYGON /* , geom */)"),
        ("CREATE TABLE t (fid INTEGER PRIMARY KEY, CHECK (geom IS NOT NULL), geom POLYGON)",
         "CREATE TABLE t (fid INTEGER PRIMARY KEY, CHECK (geom IS NOT NULL), geom MULTIPOLYGON)"),
    ])
    func retypesOnlyTheColumnsDefinition(_ sql: String, _ expected: String) {
        #expect(CreateTableSQL.retyping(column: "geom", to: "MULTIPOLYGON", in: sql) == expected)
    }

    @Test func aColumnWithoutATypeIsNotFound() {
        #expect(CreateTableSQL.retyping(column: "geom", to: "MULTIPOLYGON", in: "CREATE TABLE t (fid INTEGER PRIMARY KEY, geom)") == nil)
        #expect(CreateTableSQL.retyping(column: "geom", to: "MULTIPOLYGON", in: "CREATE TABLE t (fid INTEGER PRIMARY KEY, g POLYGON)") == nil)
    }
}
