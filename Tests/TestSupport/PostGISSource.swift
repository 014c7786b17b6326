import Foundation

/// A test database holding a GeoPackage's layers (the demo data by default), loaded by GDAL as
/// any office would load it (`fid` serial keys, `geom` columns with GiST indexes), with the
/// GeoPackage's global ids kept as uuids: the PostgreSQL twin of a GeoPackage source.
public final class PostGISSource: @unchecked Sendable {
    public let database: PostgreSQLTestDatabase
    /// The source's address as a user gives it (GDAL's form).
    public let address: String

    /// - Parameters:
    ///   - geoPackage: the file to load (a path), the demo source by default.
    ///   - tables: its layers to load.
    ///   - globalIDs: keep the `globalid` columns (as uuid); false drops them.
    public init(geoPackage: String = TestData.url("demo/alaska_source.gpkg").path,
                tables: [String] = ["parks", "airports", "park_visitors"], globalIDs: Bool = true) throws {
        database = try PostgreSQLTestDatabase()
        address = "PG:\(database.conninfo)"
        let result = try runProcess("ogr2ogr", ["-f", "PostgreSQL", "PG:\(database.conninfo)", geoPackage,
                                                "-lco", "FID=fid", "-lco", "GEOMETRY_NAME=geom", "-lco", "SPATIAL_INDEX=GIST"]
                                               + tables)
        guard result.status == 0 else { throw TestSupportError("ogr2ogr failed: \(result.stderr)") }
        for table in tables {
            try psql(globalIDs
                ? "ALTER TABLE \(table) ALTER COLUMN globalid TYPE uuid USING trim(globalid, '{}')::uuid"
                : "ALTER TABLE \(table) DROP COLUMN globalid")
        }
    }

    /// An identical copy of `other` in a database of its own (see
    /// ``PostgreSQLTestDatabase/init(copyOf:)``): far cheaper than loading the layers again.
    public init(copyOf other: PostGISSource) throws {
        database = try PostgreSQLTestDatabase(copyOf: other.database)
        address = "PG:\(database.conninfo)"
    }

    /// psql against the database: the independent judge.
    @discardableResult
    public func psql(_ sql: String) throws -> String {
        try PostgreSQLTestServer.psql(sql, conninfo: database.conninfo)
    }
}
