import Foundation
import Geodatabase
import Geometry
import PkgBuildCLI
import SQLite
import Testing
import TestSupport

/// Expiry end to end, through the command line against PostGIS: a package unused past the
/// age is expired by `source prune`, its next sync is refused as unregistered with the reason,
/// and `sync --reattach` brings it back with its pending edit, which reaches the source.
@Suite(registryNeedsCluster)
struct LogPruningExpiryTests {
    @Test func anExpiredPackageIsRefusedThenReattachedWithoutLosingItsEdit() throws {
        let source = try PostGISSource()
        let enabled = CLI.run(["source", "enable", source.address])
        try #require(enabled.exitCode == 0, "\(enabled.stderr)")
        let directory = try TemporaryDirectory("pkgbuild-pg-expiry")
        let package = directory.path("denali.pkg")
        let created = CLI.run(["create", "--area=-153.5,57,-147.5,64.3", "--features", source.address, "-o", package])
        try #require(created.exitCode == 0, "\(created.stderr)")
        let data = try GeoPackage(path: package + "/data.gpkg")
        let airports = try data.connection.query("SELECT globalid FROM airports ORDER BY fid LIMIT 2").compactMap { $0[0].stringValue }
        try #require(airports.count == 2)
        func uuid(_ globalID: String) -> String { globalID.trimmingCharacters(in: CharacterSet(charactersIn: "{}")).lowercased() }

        // A pending edit in the field; an office edit of another row; a replica unused 40 days.
        try data.connection.execute("UPDATE airports SET type = 'field edit' WHERE globalid = ?", [.text(airports[0])])
        try source.psql("UPDATE airports SET type = 'office edit' WHERE globalid = '\(uuid(airports[1]))'")
        try source.psql("UPDATE pkgbuild.replicas SET created_at = now() - interval '40 days'")
        let replica = try source.psql("SELECT replica_id FROM pkgbuild.replicas")
        let office = try #require(Int64(source.psql("SELECT max(txid)::text FROM pkgbuild.changes")))
        for _ in 0..<600 where try Int64(source.psql("SELECT pg_snapshot_xmin(pg_current_snapshot())::text")) ?? 0 <= office {
            Thread.sleep(forTimeInterval: 0.05)  // another test's open transaction holds the cluster's xmin back
        }

        let pruned = CLI.run(["source", "prune", source.address, "--expire-after", "30d", "--json"])
        #expect(pruned.exitCode == 0, "\(pruned.stderr)")
        let outcome = try JSONValue(parsing: pruned.stdout, source: "prune")
        guard case .array(let expired)? = outcome["expired"] else { Issue.record("\(pruned.stdout)"); return }
        #expect(expired.compactMap { $0["id"]?.stringValue } == [replica], "\(pruned.stdout)")
        #expect(try source.psql("SELECT count(*) FROM pkgbuild.changes") == "0")

        let refused = CLI.run(["sync", package])
        #expect(refused.exitCode == 1, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("replica \(replica) was unregistered at the source on ")
                && refused.stderr.contains("by expired: unused since ") && refused.stderr.contains("--reattach"), "\(refused.stderr)")
        #expect(try source.psql("SELECT reason FROM pkgbuild.sync_refusals") == "unregistered")
        #expect(try source.psql("SELECT type FROM airports WHERE globalid = '\(uuid(airports[0]))'") != "field edit")

        // Back: every difference a conflict; the field's edit and the office's both kept by decision.
        let reattached = CLI.run(["sync", package, "--reattach"])
        #expect(reattached.exitCode == 2, "\(reattached.stdout) \(reattached.stderr)")
        #expect(CLI.run(["resolve", package, "--all", "--take", "source"]).exitCode == 0)
        #expect(CLI.run(["resolve", package, "--id", airports[0], "--take", "package"]).exitCode == 0)
        let settled = CLI.run(["sync", package])
        #expect(settled.exitCode == 0, "\(settled.stdout) \(settled.stderr)")
        #expect(try source.psql("SELECT type FROM airports WHERE globalid = '\(uuid(airports[0]))'") == "field edit")
        #expect(try source.psql("SELECT type FROM airports WHERE globalid = '\(uuid(airports[1]))'") == "office edit")
        #expect(try data.connection.scalar("SELECT type FROM airports WHERE globalid = ?", [.text(airports[1])])?.stringValue
                == "office edit")
        // The expired replica names its successor, the one the package now syncs as.
        let successor = try source.psql("SELECT successor_id FROM pkgbuild.retired_replicas WHERE replica_id = '\(replica)'")
        #expect(try source.psql("SELECT state FROM pkgbuild.replicas WHERE replica_id = '\(successor)'") == "active")
        #expect(try data.connection.scalar("SELECT value FROM pkgbuild_package WHERE key = 'replica_id'")?.stringValue == successor)
    }
}
