import Foundation
import Testing
import TestSupport

extension Trait where Self == ConditionTrait {
    /// Runs the test only beside the cluster of `make test` (skipped otherwise, failed under CI
    /// by PostgreSQLTests.AvailabilityTests).
    static var needsPostgreSQL: Self {
        .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.unavailableNote))
    }
}

/// A test database holding the demo data (parks, airports, park_visitors), loaded by GDAL as
/// any office would load it, with the GeoPackage's global ids kept as uuids.
final class PostgreSQLSourceFixture {
    let database: PostgreSQLTestDatabase
    /// The source's address as a user gives it (GDAL's form).
    let address: String

    init(globalIDs: Bool = true) throws {
        database = try PostgreSQLTestDatabase()
        address = "PG:\(database.conninfo)"
        let demo = TestData.url("demo/alaska_source.gpkg").path
        let result = try runProcess("ogr2ogr", ["-f", "PostgreSQL", "PG:\(database.conninfo)", demo,
                                                "-lco", "FID=fid", "-lco", "GEOMETRY_NAME=geom", "-lco", "SPATIAL_INDEX=GIST",
                                                "parks", "airports", "park_visitors"])
        guard result.status == 0 else { throw TestSupportError("ogr2ogr failed: \(result.stderr)") }
        for table in ["parks", "airports", "park_visitors"] {
            try psql(globalIDs
                ? "ALTER TABLE \(table) ALTER COLUMN globalid TYPE uuid USING trim(globalid, '{}')::uuid"
                : "ALTER TABLE \(table) DROP COLUMN globalid")
        }
    }

    /// psql against the fixture's database: the independent judge.
    @discardableResult
    func psql(_ sql: String) throws -> String {
        try PostgreSQLTestServer.psql(sql, conninfo: database.conninfo)
    }
}
