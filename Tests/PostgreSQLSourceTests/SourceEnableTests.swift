import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// `pkgbuild source enable` on PostgreSQL: judged by psql, with edits made by psql and GDAL.
@Suite(.needsPostgreSQL) struct SourceEnableTests {
    @Test func adoptsUUIDGlobalIDsAddsMissingOnesAndLogsEveryWriter() throws {
        let fixture = try PostgreSQLSourceFixture()
        try fixture.psql("ALTER TABLE park_visitors DROP COLUMN globalid")
        let before = try fixture.psql("SELECT globalid FROM parks ORDER BY fid LIMIT 1")
        let result = CLI.run(["source", "enable", fixture.address, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"adopted\"") && result.stdout.contains("\"added\""))
        #expect(try fixture.psql("SELECT table_name || ':' || key_column || ':' || globalid_column FROM pkgbuild.tables ORDER BY 1")
                    == "airports:fid:globalid\npark_visitors:fid:globalid\nparks:fid:globalid")
        #expect(try fixture.psql("SELECT globalid FROM parks ORDER BY fid LIMIT 1") == before, "adopted ids are kept")
        #expect(try fixture.psql("SELECT count(*) FROM park_visitors WHERE globalid IS NULL") == "0")
        #expect(!result.stdout.contains("password"))

        // psql writes: insert (NULL global id filled), update (changed columns), delete.
        try fixture.psql("INSERT INTO airports (name, globalid) VALUES ('New strip', NULL)")
        try fixture.psql("UPDATE parks SET note = 'closed', name = name WHERE fid = 1")
        try fixture.psql("DELETE FROM airports WHERE fid = 2")
        let log = try fixture.psql("""
            SELECT table_name || ':' || operation || ':' || coalesce(array_to_string(changed_columns, ','), '-') \
            || ':' || (txid = pg_current_xact_id())::text FROM pkgbuild.changes ORDER BY id
            """)
        #expect(log == "airports:insert:-:false\nparks:update:note:false\nairports:delete:-:false")
        #expect(try fixture.psql("SELECT count(*) FROM airports WHERE name = 'New strip' AND globalid IS NOT NULL") == "1")

        // GDAL writes are logged the same way.
        let ogr = try runProcess("ogrinfo", ["PG:\(fixture.database.conninfo)", "-sql",
                                             "UPDATE airports SET iata_code = 'XXX' WHERE fid = 3"])
        #expect(ogr.status == 0, "\(ogr.stderr)")
        #expect(try fixture.psql("SELECT array_to_string(changed_columns, ',') FROM pkgbuild.changes ORDER BY id DESC LIMIT 1")
                    == "iata_code")
    }

    @Test func runningItTwiceChangesNothing() throws {
        let fixture = try PostgreSQLSourceFixture()
        #expect(CLI.run(["source", "enable", fixture.address]).exitCode == 0)
        let state = { try fixture.psql("""
            SELECT string_agg(tgname || '@' || tgrelid::regclass::text, ',' ORDER BY tgname, tgrelid::regclass::text) \
            FROM pg_trigger WHERE NOT tgisinternal
            """) + (try fixture.psql("SELECT string_agg(globalid::text, ',' ORDER BY fid) FROM parks"))
            + (try fixture.psql("SELECT count(*) FROM pkgbuild.changes")) }
        let first = try state()
        let again = CLI.run(["source", "enable", fixture.address])
        #expect(again.exitCode == 0)
        #expect(again.stdout.contains("already sync-enabled; nothing changed"), "\(again.stdout)")
        #expect(try state() == first)
    }

    @Test func truncateOfATrackedTableIsRefused() throws {
        let fixture = try PostgreSQLSourceFixture()
        #expect(CLI.run(["source", "enable", fixture.address]).exitCode == 0)
        #expect(throws: (any Error).self) { try fixture.psql("TRUNCATE airports") }
        #expect(try fixture.psql("SELECT count(*) > 0 FROM airports") == "t")
    }

    @Test func aTableWithoutAPrimaryKeyIsNamedAndNothingIsInstalled() throws {
        let fixture = try PostgreSQLSourceFixture()
        try fixture.psql("CREATE TABLE notes (body text)")
        let result = CLI.run(["source", "enable", fixture.address])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("notes: it has no primary key"), "\(result.stderr)")
        #expect(try fixture.psql("SELECT count(*) FROM pg_namespace WHERE nspname = 'pkgbuild'") == "0")
        #expect(try fixture.psql("SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal") == "0")
        #expect(try fixture.psql("SELECT count(*) FROM information_schema.columns WHERE table_name = 'parks' AND data_type = 'uuid'") == "1")
        // Naming the tables leaves it out.
        #expect(CLI.run(["source", "enable", fixture.address, "--table", "parks"]).exitCode == 0)
        #expect(try fixture.psql("SELECT string_agg(table_name, ',') FROM pkgbuild.tables") == "parks")
    }

    @Test func aGlobalIDColumnThatIsNotAUUIDIsRefusedWithTheFix() throws {
        let fixture = try PostgreSQLSourceFixture()
        try fixture.psql("ALTER TABLE airports ALTER COLUMN globalid TYPE text")
        let result = CLI.run(["source", "enable", fixture.address])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("airports: its column globalid is text, not uuid"), "\(result.stderr)")
        #expect(try fixture.psql("SELECT count(*) FROM pg_namespace WHERE nspname = 'pkgbuild'") == "0")
    }

    @Test func withoutPermissionNothingIsHalfInstalled() throws {
        let fixture = try PostgreSQLSourceFixture()
        let role = PostgreSQLTestServer.uniqueName("clerk")
        try fixture.psql("CREATE ROLE \(role) LOGIN; GRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA public TO \(role)")
        defer { _ = try? fixture.psql("DROP OWNED BY \(role); DROP ROLE \(role)") }
        let result = CLI.run(["source", "enable", "PG:\(fixture.database.conninfo) user=\(role)"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("no permission to enable change tracking"), "\(result.stderr)")
        #expect(try fixture.psql("SELECT count(*) FROM pg_namespace WHERE nspname = 'pkgbuild'") == "0")
    }

    @Test func aDatabaseWithoutPostGISAMissingSchemaAndNoServerAreNamed() throws {
        let plain = try PostgreSQLTestDatabase(postgis: false)
        let noPostGIS = CLI.run(["source", "enable", "PG:\(plain.conninfo)"])
        #expect(noPostGIS.exitCode == 1)
        #expect(noPostGIS.stderr.contains("the database has no PostGIS"), "\(noPostGIS.stderr)")

        let fixture = try PostgreSQLSourceFixture()
        let noSchema = CLI.run(["source", "enable", "PG:\(fixture.database.conninfo) schemas=field"])
        #expect(noSchema.exitCode == 1)
        #expect(noSchema.stderr.contains("the schema 'field' does not exist"), "\(noSchema.stderr)")

        let port = PostgreSQLTestServer.closedPort()
        let unreachable = CLI.run(["source", "enable", "postgresql://crew:s3cret@127.0.0.1:\(port)/gis"])
        #expect(unreachable.exitCode == 1)
        #expect(unreachable.stderr.contains("127.0.0.1") && !unreachable.stderr.contains("s3cret"), "\(unreachable.stderr)")
    }
}
