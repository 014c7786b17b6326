import Extract
import Foundation
import Geodatabase
import PackageFormat
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// A copy of a package made before a sync (a restored backup, a second device) and a source
/// restored from an older backup are refused, with nothing changed; sync ids decide, so an
/// upload-only sync and a resumed sync still go on.
@Suite struct StaleCopyTests {
    /// A copy of the package directory as a user makes it (`cp -r`).
    static func copyPackage(_ url: URL, to name: String, in fixture: SyncFixture) throws -> URL {
        let copy = fixture.directory.url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: url, to: copy)
        return copy
    }

    static func setKodiakType(_ type: String, in fixture: SyncFixture, _ url: URL) throws {
        try fixture.openPackage(url).connection.execute("UPDATE airports SET type = ? WHERE name = 'Kodiak'", [.text(type)])
    }

    /// The source's dump without the refusal note a refused sync leaves.
    static func sourceDump(_ fixture: SyncFixture) throws -> String {
        try sqliteDump(fixture.sourcePath).split(separator: "\n").filter { !$0.contains("pkgbuild_sync_refusals") }
            .joined(separator: "\n")
    }

    /// Runs `pkgbuild sync` and checks that it was refused for `reason`, changing nothing.
    static func expectRefused(_ fixture: SyncFixture, _ url: URL, _ reason: String, arguments: [String] = [],
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = url.appendingPathComponent("data.gpkg").path
        let packageBefore = try sqliteDump(data), sourceBefore = try sourceDump(fixture)
        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath] + arguments)
        #expect(result.exitCode == 1, "\(result.stdout) \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(reason) && result.stderr.contains("--reattach"), "\(result.stderr)",
                sourceLocation: sourceLocation)
        #expect(try sqliteDump(data) == packageBefore, "the package changed", sourceLocation: sourceLocation)
        #expect(try sourceDump(fixture) == sourceBefore, "the source changed", sourceLocation: sourceLocation)
    }

    @Test(arguments: [SyncDirection.bidirectional, .upload, .download])
    func aCopyMadeBeforeASyncIsRefusedWhicheverWayThatSyncWent(_ direction: SyncDirection) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try Self.setKodiakType("field", in: fixture, url)
        let copy = try Self.copyPackage(url, to: "copy.pkg", in: fixture)
        #expect(try fixture.sync(url, direction: direction).status != .stoppedOnConflicts)
        // The copy's edit would overwrite the source with what the original already synced.
        try Self.setKodiakType("stale", in: fixture, copy)
        for direction in ["bidirectional", "upload", "download"] {
            try Self.expectRefused(fixture, copy, "this copy is stale", arguments: ["--direction", direction])
        }
        // The original goes on syncing.
        try Self.setKodiakType("fresh", in: fixture, url)
        #expect(try fixture.sync(url).status == .completed)
        #expect(try fixture.openSource().connection.scalar("SELECT type FROM airports WHERE name = 'Kodiak'") == "fresh")
    }

    @Test func aSourceRestoredFromAnOlderBackupIsRefused() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let backup = fixture.directory.path("backup.gpkg")
        try fixture.openSource().connection.execute("VACUUM INTO '\(backup)'")
        try Self.setKodiakType("first", in: fixture, url)
        #expect(try fixture.sync(url).status == .completed)
        // Restored: the sync the package completed is unknown to the source.
        try FileManager.default.removeItem(atPath: fixture.sourcePath)
        try FileManager.default.copyItem(atPath: backup, toPath: fixture.sourcePath)
        try Self.expectRefused(fixture, url, "the source was restored from an older backup")
        let notes = try SourceGeodatabase(connection: fixture.openSource().connection).refusals()
        #expect(notes.first?.reason == "restored-source")
    }

    @Test func aSourceBehindThePackagesGenerationIsRefusedEvenWhenTheReplicaIsUnknown() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        // Office edits move the source on; the package downloads them.
        try fixture.openSource().connection.execute("UPDATE airports SET type = 'office' WHERE name = 'Kodiak'")
        #expect(try fixture.sync(url).status == .completed)
        // A source restored to before the package was made: no replica, fewer generations.
        let source = try fixture.openSource().connection
        try source.execute("DELETE FROM pkgbuild_replicas")
        try source.execute("DELETE FROM pkgbuild_replica_syncs")
        try source.execute("UPDATE sqlite_sequence SET seq = 0 WHERE name = 'pkgbuild_changes'")
        try Self.expectRefused(fixture, url, "the source was restored from an older backup")
    }

    /// Packages synced before every sync recorded its id keep syncing (their last download-only
    /// sync is not known at the source), and record from then on.
    @Test func aPackageFromBeforeSyncRecordsKeepsSyncing() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        try package.execute("DELETE FROM pkgbuild_package WHERE key = ?", [.text(PackageMetadata.syncRecordsKey)])
        try package.execute("INSERT OR REPLACE INTO pkgbuild_package (key, value) VALUES ('last_sync_id', 'an-old-download')")
        try Self.setKodiakType("legacy", in: fixture, url)
        #expect(try fixture.sync(url).status == .completed)
        let state = try PackageSyncState.read(fixture.openPackage(url).connection)
        #expect(state.recordsEverySync)
        #expect(try SourceGeodatabase(connection: fixture.openSource().connection).isSyncApplied(state.lastSyncID ?? ""))
    }

    /// Killed after the source committed, the package's re-run resumes; a copy of the package
    /// taken in that state, run after the original finished, is refused.
    @Test func aResumedSyncGoesOnAndItsCopyIsStaleOnceTheOriginalFinished() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try Self.setKodiakType("killed", in: fixture, url)
        #expect(throws: SimulatedCrash.self) {
            try fixture.sync(url, direction: .upload, crashHook: { if $0 == .sourceCommitted { throw SimulatedCrash() } })
        }
        let copy = try Self.copyPackage(url, to: "copy.pkg", in: fixture)
        let resumed = try fixture.sync(url, direction: .upload)
        #expect(resumed.resumed && resumed.status == .completed)
        try Self.setKodiakType("again", in: fixture, url)
        #expect(try fixture.sync(url).status == .completed)
        try Self.expectRefused(fixture, copy, "this copy is stale")
    }

    @Test func theDecisionTable() {
        func decide(last: String?, pending: String?, newest: String?, recorded: Set<String>, generation: Int64 = 5,
                    registered: Bool = true) -> String {
            let history = PackageSyncHistory(replicaID: "R", lastSyncID: last, pendingSyncID: pending, generation: generation,
                                             recordsEverySync: true)
            switch ReplicaStanding.decide(package: history, registered: registered, retired: nil, newestSyncID: newest,
                                          isRecorded: recorded.contains, sourceGeneration: 9) {
            case .current: return "current"
            case .resuming: return "resuming"
            case .refused(let refusal): return refusal.reason.rawValue
            }
        }
        #expect(decide(last: nil, pending: nil, newest: nil, recorded: []) == "current")
        #expect(decide(last: "a", pending: nil, newest: "a", recorded: ["a"]) == "current")
        #expect(decide(last: "a", pending: "b", newest: "a", recorded: ["a"]) == "current")
        #expect(decide(last: "a", pending: "b", newest: "b", recorded: ["a", "b"]) == "resuming")
        #expect(decide(last: "a", pending: "b", newest: "c", recorded: ["a", "b", "c"]) == "stale-copy")
        #expect(decide(last: "a", pending: nil, newest: "c", recorded: ["a", "c"]) == "stale-copy")
        #expect(decide(last: nil, pending: nil, newest: "c", recorded: ["c"]) == "stale-copy")
        #expect(decide(last: "a", pending: nil, newest: "c", recorded: ["c"]) == "restored-source")
        #expect(decide(last: "a", pending: nil, newest: nil, recorded: []) == "restored-source")
        #expect(decide(last: "a", pending: nil, newest: "a", recorded: ["a"], generation: 10) == "restored-source")
        #expect(decide(last: nil, pending: nil, newest: nil, recorded: [], registered: false) == "unknown-replica")
    }
}
