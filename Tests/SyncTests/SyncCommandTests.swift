import Foundation
import Geodatabase
import PackageFormat
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// The sync commands driven in-process, and edits made with GDAL.
@Suite struct SyncCommandTests {
    /// Words outside their option's set are usage errors that list the set, before any file
    /// is opened.
    @Test(arguments: [
        (["sync", "a.pkg", "--direction", "sideways"],
         "The value 'sideways' is invalid for '--direction <bidirectional|upload|download>': expected one of bidirectional, upload, download"),
        (["sync", "a.pkg", "--on-conflict", "mine"],
         "The value 'mine' is invalid for '--on-conflict <fail|source-wins|package-wins>': expected one of fail, source-wins, package-wins"),
        (["resolve", "a.pkg", "--all", "--take", "mine"],
         "The value 'mine' is invalid for '--take <package|source>': expected one of package, source"),
    ])
    func wordsOutsideTheirSetAreUsageErrors(argv: [String], message: String) {
        let result = CLI.run(argv)
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: \(message)\nUsage: pkgbuild \(argv[0])"), "\(result.stderr)")
    }

    @Test func conflictThenResolveThenSync() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        try package.execute("UPDATE airports SET type = 'pkg' WHERE name = 'Kodiak'")
        try source.execute("UPDATE airports SET type = 'office' WHERE name = 'Kodiak'")
        let id = try #require(try source.scalar("SELECT globalid FROM airports WHERE name = 'Kodiak'")?.stringValue)

        let first = CLI.run(["sync", url.path, "--source", fixture.sourcePath, "--json"])
        #expect(first.exitCode == 2, "\(first.stderr)")
        #expect(first.stdout.contains("\"kind\": \"both-changed\"") && first.stdout.contains("\"package\": \"pkg\""))
        #expect(try source.scalar("SELECT type FROM airports WHERE globalid = ?", [.text(id)]) == "office")

        let listed = CLI.run(["conflicts", url.path, "--json"])
        #expect(listed.exitCode == 0 && listed.stdout.contains(id))
        let resolved = CLI.run(["resolve", url.path, "--id", id, "--column", "type", "--take", "package", "--json"])
        #expect(resolved.exitCode == 0, "\(resolved.stderr)")
        let decision = try #require(try JSONSerialization.jsonObject(with: Data(resolved.stdout.utf8)) as? [String: Any])
        #expect(decision["take"] as? String == "package" && decision["conflicts"] as? Int == 1, "\(decision)")
        #expect(decision["globalid"] as? String == id && decision["column"] as? String == "type")
        #expect(CLI.run(["resolve", url.path, "--take", "package"]).exitCode == 64)

        let second = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(second.exitCode == 0, "\(second.stdout) \(second.stderr)")
        #expect(try source.scalar("SELECT type FROM airports WHERE globalid = ?", [.text(id)]) == "pkg")
        #expect(CLI.run(["conflicts", url.path]).stdout.contains("No open conflicts"))
    }

    /// `resolve --id` takes a globalid as `edit` and `related` do: any case, braces optional.
    @Test(arguments: ["lower case", "no braces", "lower case, no braces", "spaces around"])
    func resolveTakesTheGlobalIDAsTyped(spelling: String) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        try package.execute("UPDATE airports SET type = 'pkg' WHERE name = 'Kodiak'")
        try fixture.openSource().connection.execute("UPDATE airports SET type = 'office' WHERE name = 'Kodiak'")
        let id = try #require(try package.scalar("SELECT globalid FROM airports WHERE name = 'Kodiak'")?.stringValue)
        #expect(CLI.run(["sync", url.path, "--source", fixture.sourcePath]).exitCode == 2)
        let bare = String(id.dropFirst().dropLast())
        let typed = ["lower case": id.lowercased(), "no braces": bare, "lower case, no braces": bare.lowercased(),
                     "spaces around": " \(id) "][spelling] ?? id
        let resolved = CLI.run(["resolve", url.path, "--id", typed, "--take", "package"])
        #expect(resolved.exitCode == 0, "\(typed): \(resolved.stderr)")
        #expect(resolved.stdout == "1 conflict will take the package's value at the next sync.\n", "\(resolved.stdout)")
        #expect(try package.scalar("SELECT decision FROM pkgbuild_conflicts WHERE globalid = ?", [.text(id)]) == "package")
        // Another row's id still matches nothing.
        let other = CLI.run(["resolve", url.path, "--id", "{00000000-0000-4000-8000-000000000000}", "--take", "package"])
        #expect(other.exitCode == 1 && other.stderr.contains("has no open conflict of row"), "\(other.stderr)")
    }

    /// `source unregister` takes the replica id as typed, too; the registry keeps the id as stored.
    @Test func unregisterTakesTheReplicaIDAsTyped() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let id = try PackageSyncState.read(fixture.openPackage(url).connection).replicaID
        let typed = String(id.dropFirst().dropLast()).lowercased()
        let result = CLI.run(["source", "unregister", fixture.sourcePath, typed])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let source = try fixture.openSource().connection
        #expect(try source.scalar("SELECT count(*) FROM pkgbuild_replicas") == 0)
        #expect(try source.scalar("SELECT replica_id FROM pkgbuild_retired_replicas") == .text(id))
    }

    @Test func dryRunChangesNothing() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try fixture.openPackage(url).connection.execute("UPDATE airports SET type = 'x' WHERE name = 'Kodiak'")
        try fixture.openSource().connection.execute("UPDATE parks SET unit_name = 'y' WHERE unit_code = 'DENA'")
        let before = try fixture.snapshot(url)
        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath, "--dry-run", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"updated\": 1"))
        #expect(try fixture.snapshot(url) == before)
        #expect(try PackageChangeTracking(connection: fixture.openPackage(url).connection).pendingChanges().count == 1)
    }

    @Test func gdalEditsAreSynced() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        for sql in ["UPDATE airports SET type = 'gdal' WHERE name = 'Kodiak'",
                    "INSERT INTO airports (geom, name) VALUES (AsGPB(ST_GeomFromText('POINT(-151.5 60.2)', 4326)), 'GDAL strip')",
                    "DELETE FROM airports WHERE name = 'Anchorage Int''l'"] {
            let r = try runProcess("ogrinfo", ["-q", data, "-sql", sql])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
        let source = try fixture.openSource().connection
        #expect(try source.scalar("SELECT type FROM airports WHERE name = 'Kodiak'") == "gdal")
        #expect(try source.scalar("SELECT count(*) FROM airports WHERE name = 'GDAL strip'") == 1)
        #expect(try source.scalar("SELECT count(*) FROM airports WHERE name = 'Anchorage Int''l'") == 0)
    }

    @Test func unregisteredReplicaIsRefused() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let id = try PackageSyncState.read(fixture.openPackage(url).connection).replicaID
        let listed = CLI.run(["source", "replicas", fixture.sourcePath])
        #expect(listed.exitCode == 0 && listed.stdout.contains(id))
        #expect(CLI.run(["source", "unregister", fixture.sourcePath, id]).exitCode == 0)
        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("was unregistered at the source") && result.stderr.contains("run 'pkgbuild sync \(url.path) --reattach'"),
                "\(result.stderr)")
    }

    /// A build that crashed after renaming the package into place but before activating its
    /// replica leaves the replica pending; the first sync of that package activates it.
    @Test func pendingReplicaIsActivatedByItsPackagesSync() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let id = try PackageSyncState.read(fixture.openPackage(url).connection).replicaID
        let source = try fixture.openSource().connection
        try source.execute("UPDATE pkgbuild_replicas SET state = 'pending' WHERE replica_id = ?", [.text(id)])

        let dryRun = CLI.run(["sync", url.path, "--source", fixture.sourcePath, "--dry-run"])
        #expect(dryRun.exitCode == 0, "\(dryRun.stderr)")
        #expect(try source.scalar("SELECT state FROM pkgbuild_replicas WHERE replica_id = ?", [.text(id)]) == "pending")

        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try source.scalar("SELECT state FROM pkgbuild_replicas WHERE replica_id = ?", [.text(id)]) == "active")
    }

    /// A column added at the source is taken in (SchemaEvolutionTests has the details); one
    /// added in the package only is refused, naming the side.
    @Test func changedSourceSchemaIsTakenInAndAPackageOnlyColumnRefused() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try fixture.openSource().connection.execute("ALTER TABLE airports ADD COLUMN elevation REAL")
        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try fixture.openPackage(url).connection.scalar("SELECT count(*) FROM pragma_table_info('airports') WHERE name = 'elevation'") == 1)
        try fixture.openPackage(url).connection.execute("ALTER TABLE parks ADD COLUMN notes TEXT")
        let refused = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(refused.exitCode == 1)
        #expect(refused.stderr.contains("'parks.notes' was added in the package only"), "\(refused.stderr)")
    }
}
