import Foundation
import Geodatabase
import Geometry
import PkgBuildCLI
import PostgreSQL
@testable import PostgreSQLSource
import Testing
import TestSupport

/// `pkgbuild source prune` as an administrator runs it: the result in words and as JSON,
/// expiry named by age, and the input it refuses.
@Suite(registryNeedsCluster)
struct LogPruningCLITests {
    @Test func pruneReportsTheBoundTheRowsAndTheExpired() throws {
        let db = try RegistryDatabase()
        let old = try db.register("old.pkg")
        let change = try db.logChange()
        let kept = try db.register("kept.pkg", generation: try db.waitForXmin(atLeast: change.txid + 1))
        try db.psql("UPDATE pkgbuild.replicas SET created_at = now() - interval '3 days' WHERE name = 'old.pkg'")

        let plain = CLI.run(["source", "prune", db.address()])
        #expect(plain.exitCode == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("before generation \(old.extractionGeneration): 0 rows deleted, 1 kept."), "\(plain.stdout)")
        #expect(plain.stdout.contains("The oldest position is replica \(old.id) (old.pkg) of schema public"), "\(plain.stdout)")

        let expiring = CLI.run(["source", "prune", db.address(), "--expire-after", "2d", "--json"])
        #expect(expiring.exitCode == 0, "\(expiring.stderr)")
        let value = try JSONValue(parsing: expiring.stdout, source: "output")
        #expect(value["pruned_before"] == .int(kept.extractionGeneration) && value["deleted_rows"] == .int(1)
                && value["previously_pruned_before"] == .int(old.extractionGeneration), "\(expiring.stdout)")
        guard case .array(let expired)? = value["expired"] else { Issue.record("no expired: \(expiring.stdout)"); return }
        #expect(expired.compactMap { $0["id"]?.stringValue } == [old.id])
        #expect(try db.psql("SELECT name FROM pkgbuild.replicas") == "kept.pkg")
        #expect(try db.psql("SELECT count(*) FROM pkgbuild.changes") == "0")
        #expect(try db.psql("SELECT value FROM pkgbuild.settings WHERE key = 'pruned_before'") == "\(kept.extractionGeneration)")
        let status = CLI.run(["source", "status", db.address()])
        #expect(status.stdout.contains("pruned before \(kept.extractionGeneration)") && status.stdout.contains("expired: unused since"),
                "\(status.stdout)")
    }

    @Test(arguments: ["3y", "0d", "soon"])
    func anAgeThatIsNotOneIsAUsageError(_ age: String) throws {
        let db = try RegistryDatabase()
        let result = CLI.run(["source", "prune", db.address(), "--expire-after", age])
        #expect(result.exitCode == 64 && result.stderr.contains("'\(age)' is invalid for '--expire-after"), "\(result.stderr)")
    }

    @Test func aGeoPackageOrASchemaNotEnabledIsRefused() throws {
        let directory = try TemporaryDirectory("pkgbuild-prune")
        let path = try directory.copy(testdata: "demo/alaska_source.gpkg", as: "source.gpkg")
        let geoPackage = CLI.run(["source", "prune", path])
        #expect(geoPackage.exitCode == 1 && geoPackage.stderr.contains("needs no pruning"), "\(geoPackage.stderr)")
        let bare = try PostgreSQLTestDatabase()
        let notEnabled = CLI.run(["source", "prune", "PG:\(bare.conninfo)", "--json"])
        #expect(notEnabled.exitCode == 1 && notEnabled.stderr.contains("not sync-enabled"), "\(notEnabled.stderr)")
    }
}

/// Prune over the log `source enable`'s triggers keep: office edits through psql are logged,
/// and pruned once every replica has passed them, not before.
@Suite(registryNeedsCluster)
struct LogPruningEnabledSourceTests {
    @Test func officeEditsArePrunedOnceTheReplicaPassedThem() throws {
        let fixture = try PostgreSQLSourceFixture()
        let enabled = CLI.run(["source", "enable", fixture.address])
        try #require(enabled.exitCode == 0, "\(enabled.stderr)")
        try fixture.psql("UPDATE parks SET name = name || ' (edited)' WHERE fid = 1")
        let edit = try #require(Int64(fixture.psql("SELECT max(txid)::text FROM pkgbuild.changes")))
        let connection = try Connection(fixture.database.conninfo)
        let registry = ReplicaRegistry(connection: connection, sourceSchema: "public")
        let replica = try registry.registerReplica(ReplicaRegistration(name: "denali.pkg", generation: edit, layers: ["parks"]))
        try fixture.psql("DELETE FROM airports WHERE fid = 1")

        let first = CLI.run(["source", "prune", fixture.address, "--json"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(try JSONValue(parsing: first.stdout, source: "output")["deleted_rows"] == .int(0), "\(first.stdout)")
        #expect(try fixture.psql("SELECT table_name || ':' || operation FROM pkgbuild.changes ORDER BY id")
                == "parks:update\nairports:delete")

        try registry.recordSync(replicaID: replica.id, syncID: "s1", generation: edit + 1)
        // Transaction ids are the cluster's: another test's open transaction may hold the xmin back.
        for _ in 0..<600 where try ReplicaRegistry.currentGeneration(in: connection) <= edit { Thread.sleep(forTimeInterval: 0.05) }
        let second = CLI.run(["source", "prune", fixture.address, "--json"])
        #expect(try JSONValue(parsing: second.stdout, source: "output")["deleted_rows"] == .int(1), "\(second.stdout)")
        #expect(try fixture.psql("SELECT table_name || ':' || operation FROM pkgbuild.changes ORDER BY id") == "airports:delete")
        let status = CLI.run(["source", "status", fixture.address])
        #expect(status.stdout.contains("change log 1 rows (pruned before \(edit + 1))"), "\(status.stdout)")
    }
}

/// A user who may read the log but not delete from it is told so, and nothing is pruned.
@Suite(registryNeedsCluster)
struct LogPruningPermissionTests {
    @Test func aPruneTheServerRefusesNamesTheSourceAndChangesNothing() throws {
        let db = try RegistryDatabase()
        let change = try db.logChange()
        try db.register("kept.pkg", generation: try db.waitForXmin(atLeast: change.txid + 1))
        let role = PostgreSQLTestServer.uniqueName("reader")
        try db.psql("""
            CREATE ROLE \(role) LOGIN; GRANT USAGE ON SCHEMA pkgbuild TO \(role);
            GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA pkgbuild TO \(role)
            """)
        defer { _ = try? db.psql("DROP OWNED BY \(role); DROP ROLE \(role)") }
        let result = CLI.run(["source", "prune", "PG:\(db.database.conninfo) user=\(role)", "--json"])
        #expect(result.exitCode == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("permission denied for table changes") && result.stderr.contains("nothing was pruned")
                && result.stderr.contains("\"kind\":\"source\""), "\(result.stderr)")
        #expect(try db.psql("SELECT count(*) FROM pkgbuild.changes") == "1")
        #expect(try db.psql("SELECT value FROM pkgbuild.settings WHERE key = 'pruned_before'") == "0")
    }
}
