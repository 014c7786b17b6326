import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers
@testable import Sync
import TestSupport
import Testing

/// The sync protocol's guarantees (resume after a kill, stale copies, dry runs, constraint
/// conflicts, transient errors) held by both drivers: what sync relies on is the protocol,
/// not SQLite's behaviour.
@Suite struct InMemoryProtocolTests {
    /// At every crash point: a kill before the source committed leaves it untouched and the
    /// re-run applies the sync; a kill after makes the re-run resume, writing nothing again.
    @Test(arguments: SourceBackend.available, SyncCrashPoint.allCases)
    func aRerunAfterAKillConvergesWithoutApplyingTwice(_ backend: SourceBackend, _ point: SyncCrashPoint) throws {
        let f = try SourceBackendFixture(backend)
        try ogrSQL(f.data, "UPDATE airports SET type = 'closed' WHERE name = 'Kodiak'")
        try f.officeUpdate("airports", named: "Fairbanks Int'l", set: "iata_code", to: .text("FAI2"))
        let untouched = try f.sourceWrites()
        #expect(throws: SimulatedCrash.self) {
            try f.sync(crashHook: { if $0 == point { throw SimulatedCrash() } })
        }
        let committed = point == .sourceCommitted || point == .downloadApplied
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text(committed ? "closed" : "mid"))
        let afterKill = try f.sourceWrites()
        if !committed { #expect(afterKill == untouched) }
        let rerun = try f.sync()
        #expect(rerun.status == .completed && rerun.resumed == committed, "\(rerun)")
        #expect(rerun.uploaded.total == (committed ? 0 : 1), "\(rerun)")
        // After a commit, nothing is written at the source again.
        if committed { #expect(try f.sourceWrites() == afterKill) }
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text("closed"))
        #expect(try f.packageValue("airports", named: "Fairbanks Int'l", "iata_code") == "'FAI2'")
        #expect(try f.packageValue("airports", named: "Kodiak", "type") == "'closed'")
        #expect(try PackageChangeTracking(connection: f.base.openPackage(f.url).connection).pendingChanges().isEmpty)
        if backend == .memory { #expect(f.memory.state.registry.syncs.count == 1) }
        #expect(try f.verify().differences.isEmpty)
        let again = try f.sync()
        #expect(again.uploaded.total == 0 && again.downloaded.total == 0, "\(again)")
    }

    @Test(arguments: SourceBackend.available)
    func aCopyMadeBeforeASyncIsRefusedAsStale(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        try ogrSQL(f.data, "UPDATE airports SET type = 'field' WHERE name = 'Kodiak'")
        let copy = f.base.directory.url.appendingPathComponent("copy.pkg")
        try FileManager.default.copyItem(at: f.url, to: copy)
        #expect(try f.sync().status == .completed)
        try ogrSQL(copy.appendingPathComponent("data.gpkg").path, "UPDATE airports SET type = 'stale' WHERE name = 'Kodiak'")
        let before = try f.sourceWrites()
        let error = try #require(throws: SyncError.self) { try f.sync(copy) }
        #expect(error.kind == .staleCopy && error.message.contains("this copy is stale"), "\(error)")
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text("field"))
        #expect(try f.sourceWrites() == before)
        if backend == .memory { #expect(f.memory.state.registry.refusals.map(\.reason) == ["stale-copy"]) }
    }

    @Test(arguments: SourceBackend.available)
    func aDryRunLeavesTheSourceAsItWas(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        try ogrSQL(f.data, "UPDATE airports SET type = 'closed' WHERE name = 'Kodiak'")
        try f.officeUpdate("airports", named: "Fairbanks Int'l", set: "iata_code", to: .text("FAI2"))
        let rowsBefore = f.memory.state.tables.map(\.rows), positionBefore = try f.sourceWrites()
        let packageBefore = try sqliteDump(f.data)
        let report = try f.sync(dryRun: true)
        #expect(report.dryRun && report.uploaded.updated == 1 && report.downloaded.updated == 1, "\(report)")
        #expect(try f.sourceWrites() == positionBefore)
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text("mid"))
        #expect(try sqliteDump(f.data) == packageBefore)
        if backend == .memory {
            #expect(f.memory.state.tables.map(\.rows) == rowsBefore)
            #expect(f.memory.state.registry.syncs.isEmpty && f.memory.transactionCounts.rolledBack >= 1)
        }
        // The real run does what the dry run said.
        let real = try f.sync()
        #expect(real.uploaded.updated == 1 && real.downloaded.updated == 1, "\(real)")
    }

    @Test(arguments: SourceBackend.available)
    func anOfflineInsertTakingAUniqueValueIsAConstraintConflictNamingTheHolder(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend, prepare: ["CREATE UNIQUE INDEX airports_iata ON airports (iata_code)"])
        try ogrSQL(f.data, """
            INSERT INTO airports (geom, name, iata_code, type) SELECT geom, 'Kodiak strip', 'ADQ', 'small' \
            FROM airports WHERE name = 'Kodiak'
            """)
        try #require(try f.packageValue("airports", named: "Kodiak strip", "iata_code") == "'ADQ'", "the package took the insert")
        let kodiak = try #require(try f.sourceValue("airports", named: "Kodiak", "globalid")?.stringValue)
        let before = try f.sourceWrites()
        let report = try f.sync()
        #expect(report.status == .stoppedOnConflicts, "\(report)")
        let conflict = try #require(report.conflicts.first)
        #expect(report.conflicts.count == 1 && conflict.kind == .constraint, "\(report.conflicts)")
        #expect(conflict.message?.contains(kodiak) == true, "\(conflict)")
        #expect(try f.sourceWrites() == before && f.sourceRow("airports", named: "Kodiak strip") == nil)
    }

    /// A row the source refuses for a reason other than a unique value (NOT NULL) is one
    /// constraint conflict; the other edits go up.
    @Test(arguments: SourceBackend.available)
    func aRowRefusedForANullIsAConstraintConflictAndTheOthersGoUp(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        // Added after the package was made: the package takes the column, not its constraint.
        try f.addSourceColumn("code2", type: "TEXT", baseType: .text, to: "airports", notNullDefault: "x")
        #expect(try f.sync().status == .completed)
        try ogrSQL(f.data, "UPDATE airports SET code2 = NULL, type = 'nulled' WHERE name = 'Kodiak'")
        try ogrSQL(f.data, "UPDATE airports SET type = 'edited' WHERE name = 'Anchorage Int''l'")
        let report = try f.sync(policy: .sourceWins)
        #expect(report.status == .completedWithPending, "\(report)")
        let conflict = try #require(report.conflicts.first)
        #expect(report.conflicts.count == 1 && conflict.kind == .constraint, "\(report.conflicts)")
        #expect(try f.sourceValue("airports", named: "Kodiak", "code2") == .text("x"))
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text("mid"))
        #expect(try f.sourceValue("airports", named: "Anchorage Int'l", "type") == .text("edited"))
    }

    /// An address no registered driver takes, and one the driver takes but that names nothing,
    /// are the source's errors, named, with nothing written.
    @Test func anAddressNoDriverTakesOrThatNamesNothingIsRefusedNamingIt() throws {
        let f = try SourceBackendFixture(.memory)
        let dump = try sqliteDump(f.data)
        for address in [f.base.sourcePath, "memory:elsewhere"] {
            var options = f.options()
            options.source = address
            let error = try #require(throws: SyncError.self) { try SyncSession(package: f.url, options: options).run() }
            #expect(error.kind == .source && error.message.contains(address), "\(error)")
        }
        #expect(try sqliteDump(f.data) == dump)
        #expect(f.memory.transactionCounts.begun == 0)
    }

    @Test func aBeginTheSourceRefusesForAWhileIsTriedAgain() throws {
        let f = try SourceBackendFixture(.memory)
        try f.officeUpdate("airports", named: "Fairbanks Int'l", set: "iata_code", to: .text("FAI2"))
        f.memory.busyBegins = 3
        let report = try f.sync()
        #expect(report.status == .completed && report.downloaded.updated == 1, "\(report)")
        #expect(f.memory.busyBegins == 0)
    }

    /// A commit refused as a serialization failure is (a database whose write order is not
    /// its commit order): the whole upload is tried again, and applied once.
    @Test func anUploadWhoseCommitFailsTransientlyIsTriedAgainWhole() throws {
        let f = try SourceBackendFixture(.memory)
        try ogrSQL(f.data, "UPDATE airports SET type = 'closed' WHERE name = 'Kodiak'")
        try f.officeUpdate("airports", named: "Fairbanks Int'l", set: "iata_code", to: .text("FAI2"))
        f.memory.failingCommits = 1
        let report = try f.sync()
        #expect(report.status == .completed && report.uploaded.updated == 1 && report.downloaded.updated == 1, "\(report)")
        #expect(f.memory.failingCommits == 0 && f.memory.state.registry.syncs.count == 1)
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text("closed"))
        #expect(try f.packageValue("airports", named: "Fairbanks Int'l", "iata_code") == "'FAI2'")
        #expect(try f.verify().differences.isEmpty)
    }

    @Test(arguments: SourceBackend.available)
    func anOfficeEditAfterTheUploadOfTheSameRowComesDown(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        try ogrSQL(f.data, "UPDATE airports SET type = 'closed' WHERE name = 'Kodiak'")
        #expect(try f.sync().downloaded.total == 0)
        try f.officeUpdate("airports", named: "Kodiak", set: "iata_code", to: .text("KDK"))
        let report = try f.sync()
        #expect(report.downloaded.updated == 1, "\(report)")
        #expect(try f.packageValue("airports", named: "Kodiak", "iata_code") == "'KDK'")
        #expect(try f.packageValue("airports", named: "Kodiak", "type") == "'closed'")
    }
}
