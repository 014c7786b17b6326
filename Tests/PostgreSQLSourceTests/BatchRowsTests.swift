import Foundation
import Geodatabase
import PkgBuildCLI
import PostgreSQLSource
import SourceDrivers
import Testing
import TestSupport

/// A batch of rows read in one statement gives, id by id, what reading each alone gives.
@Suite(.needsPostgreSQL) struct BatchRowsTests {
    let fixture: PostgreSQLSourceFixture
    let source: any SyncSource
    let shape = TableShape(name: "airports", keyColumn: "fid", globalIDColumn: "globalid", columns: ["globalid", "name", "iata_code"])

    init() throws {
        fixture = try PostgreSQLSourceFixture()
        #expect(CLI.run(["source", "enable", fixture.address]).exitCode == 0)
        source = try PostgreSQLSourceDriver().openSyncSource(fixture.address, options: SourceOpenOptions())
    }

    @Test func aBatchIsEachRowInOrderNilWhereMissingAsSpelledByTheCaller() throws {
        let known = try fixture.psql("SELECT globalid FROM airports ORDER BY fid DESC LIMIT 3").split(separator: "\n").map(String.init)
        let missing = "{" + UUID().uuidString + "}"
        // The package spells ids upper case in braces; psql gives them lower case and bare.
        let asked = [known[0].uppercased(), missing, "{\(known[1])}", "{\(known[0].uppercased())}", known[2]]
        let batch = try source.rows(asked, in: shape)
        let alone = try asked.map { try source.row($0, in: shape) }
        #expect(batch.count == asked.count)
        #expect(batch[1] == nil && alone[1] == nil)
        #expect(batch.map { $0?.values } == alone.map { $0?.values })
        let name = try fixture.psql("SELECT name FROM airports WHERE globalid = '\(known[1])'")
        #expect(batch[2]?.values[1] == .text(name))
        #expect(source.readsBatchesFaster)
    }
}
