import Testing
import TestSupport
@testable import PostgreSQL

@Suite("Test databases and psql", .needsPostgreSQL)
struct TestDatabaseTests {
    @Test("a test database has PostGIS unless made without it, and is dropped when released")
    func ownDatabase() throws {
        var name = ""
        do {
            let withPostGIS = try PostgreSQLTestDatabase()
            let without = try PostgreSQLTestDatabase(postgis: false)
            name = withPostGIS.name
            let db = try Connection(withPostGIS.conninfo)
            #expect(try db.queryFirst("SELECT current_database()")?.string(0) == withPostGIS.name)
            let extensions = "SELECT count(*) FROM pg_extension WHERE extname = 'postgis'"
            #expect(try PostgreSQLTestServer.psql(extensions, conninfo: withPostGIS.conninfo) == "1")
            #expect(try PostgreSQLTestServer.psql(extensions, conninfo: without.conninfo) == "0")
        }
        let left = try PostgreSQLTestServer.psql("SELECT count(*) FROM pg_database WHERE datname = '\(name)'")
        #expect(left == "0")
    }

    @Test("psql sees what the wrapper wrote, and reports what it refuses")
    func psqlJudges() throws {
        let db = try connectToTestDatabase()
        let table = PostgreSQLTestServer.uniqueName("judge")
        try db.execute("CREATE TABLE \(table)(id int, name text)")
        defer { try? db.execute("DROP TABLE \(table)") }
        try db.execute("INSERT INTO \(table) VALUES ($1, $2), ($3, $4)", [1, "Denali", 2, nil])
        #expect(try PostgreSQLTestServer.psql("SELECT id, coalesce(name, '-') FROM \(table) ORDER BY id") == "1|Denali\n2|-")
        #expect(throws: TestSupportError.self) { try PostgreSQLTestServer.psql("SELECT * FROM no_such_table") }
    }
}
