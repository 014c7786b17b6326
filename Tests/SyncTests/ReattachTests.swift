import Extract
import Foundation
import Geodatabase
import PackageFormat
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// `sync --reattach` brings a stranded package back: a new replica at the source's state, every
/// difference a conflict (nothing merged silently), settled by `resolve`, nothing lost.
@Suite struct ReattachTests {
    func run(_ arguments: [String]) -> CLIResult { CLI.run(arguments) }

    func scalar(_ fixture: SyncFixture, _ sql: String) throws -> SQLiteValue? {
        try fixture.openSource().connection.scalar(sql)
    }

    @Test func aStaleCopyReattachesAndItsEditsComeHomeByDecision() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let copy = try StaleCopyTests.copyPackage(url, to: "copy.pkg", in: fixture)
        try StaleCopyTests.setKodiakType("fresh", in: fixture, url)
        #expect(try fixture.sync(url).status == .completed)
        let original = try PackageSyncState.read(fixture.openPackage(url).connection).replicaID

        try StaleCopyTests.setKodiakType("stale", in: fixture, copy)
        try fixture.openPackage(copy).connection.execute("UPDATE airports SET type = 'copy' WHERE name = 'Fairbanks Int''l'")
        try StaleCopyTests.expectRefused(fixture, copy, "this copy is stale")

        let reattached = run(["sync", copy.path, "--source", fixture.sourcePath, "--reattach", "--json"])
        #expect(reattached.exitCode == 2, "\(reattached.stdout) \(reattached.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(reattached.stdout.utf8)) as? [String: Any]
        #expect(report?["reattached_from"] as? String == original, "\(reattached.stdout)")
        // manifest.json names the new replica, as data.gpkg does.
        let newReplica = try PackageSyncState.read(fixture.openPackage(copy).connection).replicaID
        #expect(newReplica != original)
        #expect(try PackageManifest.read(from: copy.appendingPathComponent(PackageManifest.fileName)).replicaID == newReplica)
        // Nothing merged: the source kept its values, the copy its edits, each difference is open.
        #expect(try scalar(fixture, "SELECT type FROM airports WHERE name = 'Kodiak'") == "fresh")
        let open = try PackageConflicts.list(package: copy)
        #expect(Set(open.map { $0.conflict.column ?? "" }) == ["type"] && open.count == 2, "\(open)")
        #expect(open.allSatisfy { $0.conflict.baseValue == nil && $0.conflict.resolution == nil })

        #expect(run(["resolve", copy.path, "--all", "--take", "package"]).exitCode == 0)
        let settled = run(["sync", copy.path, "--source", fixture.sourcePath])
        #expect(settled.exitCode == 0, "\(settled.stdout) \(settled.stderr)")
        #expect(try scalar(fixture, "SELECT type FROM airports WHERE name = 'Kodiak'") == "stale")
        #expect(try scalar(fixture, "SELECT type FROM airports WHERE name = 'Fairbanks Int''l'") == "copy")
        // Both replicas live on: the original still syncs (and now downloads the copy's edits).
        let source = SourceGeodatabase(connection: try fixture.openSource().connection)
        let copyReplica = try PackageSyncState.read(fixture.openPackage(copy).connection).replicaID
        #expect(try source.replica(id: original)?.state == .active && source.replica(id: copyReplica)?.state == .active)
        #expect(try fixture.sync(url).status == .completed)
        #expect(try fixture.openPackage(url).connection.scalar("SELECT type FROM airports WHERE name = 'Kodiak'") == "stale")
    }

    @Test func aPackageAheadOfARestoredSourceGetsItsSyncedWorkBackByDecision() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let backup = fixture.directory.path("backup.gpkg")
        try fixture.openSource().connection.execute("VACUUM INTO '\(backup)'")
        let package = try fixture.openPackage(url).connection
        try package.execute("INSERT INTO airports (geom, name, type) VALUES (?, 'Field strip', 'small')", [pointBlob(-151, 60)])
        try package.execute("DELETE FROM airports WHERE name = 'Fairbanks Int''l'")
        #expect(try fixture.sync(url).status == .completed)
        try StaleCopyTests.setKodiakType("pending", in: fixture, url)
        try FileManager.default.removeItem(atPath: fixture.sourcePath)
        try FileManager.default.copyItem(atPath: backup, toPath: fixture.sourcePath)
        let old = try PackageSyncState.read(package).replicaID
        try StaleCopyTests.expectRefused(fixture, url, "restored")

        let reattached = run(["sync", url.path, "--source", fixture.sourcePath, "--reattach"])
        #expect(reattached.exitCode == 2, "\(reattached.stdout) \(reattached.stderr)")
        let kinds = try PackageConflicts.list(package: url).map(\.conflict.kind)
        #expect(kinds.sorted { $0.rawValue < $1.rawValue } == [.bothChanged, .deleteUpdate, .updateDelete], "\(kinds)")
        #expect(run(["resolve", url.path, "--all", "--take", "package"]).exitCode == 0)
        #expect(run(["sync", url.path, "--source", fixture.sourcePath]).exitCode == 0)
        #expect(try scalar(fixture, "SELECT count(*) FROM airports WHERE name = 'Field strip'") == 1)
        #expect(try scalar(fixture, "SELECT count(*) FROM airports WHERE name = 'Fairbanks Int''l'") == 0)
        #expect(try scalar(fixture, "SELECT type FROM airports WHERE name = 'Kodiak'") == "pending")
        let retired = try SourceGeodatabase(connection: fixture.openSource().connection).retiredReplica(id: old)
        let successor = try PackageSyncState.read(package).replicaID
        #expect(retired?.successorID == successor && retired?.retiredBy.contains("reattach") == true)
    }

    @Test func anUnregisteredPackageWithoutDifferencesReattachesCleanly() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let old = try PackageSyncState.read(fixture.openPackage(url).connection).replicaID
        #expect(run(["source", "unregister", fixture.sourcePath, old]).exitCode == 0)
        try StaleCopyTests.expectRefused(fixture, url, "was unregistered")
        let reattached = run(["sync", url.path, "--source", fixture.sourcePath, "--reattach"])
        #expect(reattached.exitCode == 0, "\(reattached.stdout) \(reattached.stderr)")
        #expect(reattached.stdout.contains("Re-attached: replica \(old)"))
        // The unregistered replica names the one that took over (source replicas' REPLACED BY).
        let renewed = try PackageSyncState.read(fixture.openPackage(url).connection).replicaID
        let registry = SourceGeodatabase(connection: try fixture.openSource().connection)
        #expect(try registry.retiredReplica(id: old)?.successorID == renewed)
        try StaleCopyTests.setKodiakType("after", in: fixture, url)
        #expect(try fixture.sync(url).status == .completed)
        #expect(try scalar(fixture, "SELECT type FROM airports WHERE name = 'Kodiak'") == "after")
        #expect(run(["sync", url.path, "--source", fixture.sourcePath, "--reattach", "--dry-run"]).exitCode == 1)
    }
}
