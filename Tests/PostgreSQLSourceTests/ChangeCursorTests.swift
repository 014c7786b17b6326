import Foundation
import Geodatabase
import Geometry
import PkgBuildCLI
import PostgreSQL
import PostgreSQLSource
import SourceDrivers
import Testing
import TestSupport

/// The change cursor against the snapshot trap: a transaction that began before a download
/// and commits after it must still reach the next one, exactly once.
@Suite(.needsPostgreSQL) struct ChangeCursorTests {
    let fixture: PostgreSQLSourceFixture
    let source: any SyncSource

    init() throws {
        fixture = try PostgreSQLSourceFixture()
        #expect(CLI.run(["source", "enable", fixture.address]).exitCode == 0)
        source = try PostgreSQLSourceDriver().openSyncSource(fixture.address, options: SourceOpenOptions())
    }

    private func globalID(park fid: Int) throws -> String {
        "{" + (try fixture.psql("SELECT upper(globalid::text) FROM parks WHERE fid = \(fid)")) + "}"
    }

    /// One download: the changes since `position`, and the position it read.
    private func download(since position: SourcePosition, excluding replica: String = "nobody") throws
        -> (changes: [String], position: SourcePosition) {
        try source.withTransaction(.read) {
            var changes: [String] = []
            try source.forEachChange(since: position, excludingReplica: replica, tables: ["parks", "airports"]) {
                changes.append($0.globalID)
            }
            return (changes, try source.position())
        }
    }

    @Test func aTransactionCommittingAfterADownloadReachesTheNextOneOnce() throws {
        let start = try source.withTransaction(.read) { try source.position() }
        let office = try Connection(fixture.database.conninfo)
        try office.execute("BEGIN")
        try office.execute("UPDATE parks SET note = 'slow' WHERE fid = 1")   // its txid is older
        try fixture.psql("UPDATE parks SET note = 'quick' WHERE fid = 2")    // commits first

        let first = try download(since: start)
        #expect(first.changes == [try globalID(park: 2)])
        try office.execute("COMMIT")

        let second = try download(since: first.position)
        #expect(second.changes == [try globalID(park: 1)], "the late commit arrives, the early one not again")
        #expect(try download(since: second.position).changes.isEmpty)
        #expect(second.position.generation >= first.position.generation)
    }

    @Test func aRowChangedTwiceComesOnceAndTheReplicasOwnUploadStaysHome() throws {
        let start = try source.withTransaction(.read) { try source.position() }
        try fixture.psql("UPDATE parks SET note = 'one' WHERE fid = 3; UPDATE parks SET note = 'two' WHERE fid = 3")
        let park4 = try globalID(park: 4)
        let shape = TableShape(name: "parks", keyColumn: "fid", globalIDColumn: "globalid", columns: ["note"])
        let outcome = try source.withApplyContext(replicaID: "{R1}", syncID: "{S1}") {
            try source.apply(.update(globalID: park4, SourceRow(columns: ["note"], values: [.text("field")])), in: shape)
        }
        #expect(outcome == .applied(found: true))
        #expect(try fixture.psql("SELECT replica_id || ' ' || sync_id FROM pkgbuild.changes ORDER BY id DESC LIMIT 1") == "{R1} {S1}")
        #expect(try download(since: start, excluding: "{R1}").changes == [try globalID(park: 3)])
        #expect(try download(since: start, excluding: "{R2}").changes == [try globalID(park: 3), park4])
    }

    @Test func aCursorNoPostgreSQLSourceWroteIsRefused() throws {
        #expect(throws: SourceError.self) { try source.position(cursor: "42", generation: 42) }
        #expect(throws: SourceError.self) { try source.position(cursor: nil, generation: 0) }
        let read = try source.position(cursor: "100:105:101,103", generation: 0)
        #expect(read == SourcePosition(cursor: "100:105:101,103", generation: 100))
    }
}
