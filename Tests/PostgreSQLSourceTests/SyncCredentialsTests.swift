import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// A package made with a password in its address keeps none, and `sync` without `--source`
/// finds the password the libpq way (PGPASSWORD here; ~/.pgpass and services alike).
@Suite(.needsPostgreSQL) struct SyncCredentialsTests {
    static let binary = TestData.root.appendingPathComponent(".build/debug/pkgbuild").path

    @Test func syncFindsThePasswordInTheEnvironmentAndRefusesClearlyWithoutIt() throws {
        let source = try PostGISSource()
        #expect(CLI.run(["source", "enable", source.address]).exitCode == 0)
        let role = PostgreSQLTestServer.passwordRole
        try source.psql("""
            GRANT USAGE ON SCHEMA pkgbuild TO \(role); GRANT ALL ON ALL TABLES IN SCHEMA public, pkgbuild TO \(role); \
            GRANT ALL ON ALL SEQUENCES IN SCHEMA public, pkgbuild TO \(role)
            """)
        let password = try #require(PostgreSQLTestServer.password)
        let directory = try TemporaryDirectory("pkgbuild-credentials")
        let package = directory.path("crew.pkg")
        let created = CLI.run(["create", "--area=-160,57,-140,66", "--features",
                               "PG:\(source.database.conninfo) user=\(role) password='\(password)'", "--output", package])
        try #require(created.exitCode == 0, "\(created.stderr)")
        let edit = try runProcess("ogrinfo", ["-q", package + "/data.gpkg", "-sql", "UPDATE airports SET type = 'closed' WHERE name = 'Kodiak'"])
        try #require(edit.status == 0, "\(edit.stderr)")

        let without = try runProcess(Self.binary, ["sync", package], environment: Self.environment(password: nil))
        #expect(without.status == 1, "\(without.stdout) \(without.stderr)")
        #expect(without.stderr.contains("password"), "\(without.stderr)")
        #expect(try source.psql("SELECT type FROM airports WHERE name = 'Kodiak'") != "closed")

        let with = try runProcess(Self.binary, ["sync", package], environment: Self.environment(password: password))
        #expect(with.status == 0, "\(with.stdout) \(with.stderr)")
        #expect(try source.psql("SELECT type FROM airports WHERE name = 'Kodiak'") == "closed")
        for output in [created.stdout, created.stderr, without.stdout, without.stderr, with.stdout, with.stderr] {
            #expect(!output.contains(password))
        }
    }

    /// `create`'s refusals name the source without the password the address holds.
    @Test func createRefusalsNameTheSourceWithoutItsPassword() throws {
        let source = try PostGISSource()
        let password = try #require(PostgreSQLTestServer.password)
        try source.psql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(PostgreSQLTestServer.passwordRole)")
        let address = "PG:\(source.database.conninfo) user=\(PostgreSQLTestServer.passwordRole) password='\(password)'"
        let directory = try TemporaryDirectory("pkgbuild-credentials")
        for extra in [["--layer", "nothing"], []] {  // no such layer; not sync-enabled
            let result = CLI.run(["create", "--area=-160,57,-140,66", "--features", address, "--output", directory.path("x.pkg")] + extra)
            #expect(result.exitCode != 0)
            #expect(!result.stderr.isEmpty && !result.stderr.contains(password), "\(result.stderr)")
        }
    }

    /// The process's environment without any PG* variable (nor a .pgpass: HOME elsewhere),
    /// with PGPASSWORD when given.
    static func environment(password: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        environment["HOME"] = FileManager.default.temporaryDirectory.path
        environment["PGPASSWORD"] = password
        return environment
    }
}
