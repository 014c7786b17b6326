import Foundation
import Geodatabase
import SQLite
import SourceDrivers
@testable import Sync
import TestSupport
import Testing

/// The in-memory source's filter evaluation (Swift over row values) against SQLite's own
/// answer for the same tree rendered in its dialect, on the same rows: the oracle is SQLite.
@Suite struct InMemoryFilterTests {
    static let expressions = [
        "type = 'major'", "type <> 'major'", "scalerank < 5", "scalerank >= '4'", "scalerank = 4.5", "name = 5",
        "name LIKE 'k%'", "name LIKE '%INT_L'", "name LIKE '_nchorage%'", "name NOT LIKE '%a%'", "name LIKE 'ä%'",
        "name LIKE '_NGEL%'", "iata_code IS NULL", "iata_code IS NOT NULL", "NOT (type = 'major' OR scalerank >= 4)",
        "scalerank BETWEEN 2 AND 6", "scalerank NOT BETWEEN 3 AND 8", "type IN ('small', 'mid')",
        "iata_code NOT IN ('ANC', gps_code)", "iata_code IN ('ANC', gps_code)", "gps_code <> iata_code",
        "fid > 3 AND NOT iata_code IS NULL", "iata_code < 'M' OR scalerank IS NULL", "NOT iata_code = 'ADQ'",
        "scalerank > -1", "scalerank IN (4, '8')", "type = 'MAJOR'",
    ]

    /// The demo source with rows that reach the corners: NULLs, a real, text in a number
    /// column, letters outside ASCII, upper case.
    static func source() throws -> (SyncFixture, InMemorySource) {
        let fixture = try SyncFixture()
        let connection = try fixture.openSource().connection
        for (name, iata, gps, rank, type) in [("ÄNGEL strip", nil, "PXAE", "4.5", "MAJOR"), ("ängel field", "ZZA", nil, "4", "small"),
                                              ("No code", nil, nil, nil, "mid"), ("Text rank", "TXT", "PTXT", "'8'", "mid")] {
            try connection.execute("""
                INSERT INTO airports (geom, name, iata_code, gps_code, scalerank, type) VALUES (?, ?, ?, ?, \(rank ?? "NULL"), ?)
                """, [pointBlob(-150, 61), .text(name), iata.map(SQLiteValue.text) ?? .null, gps.map(SQLiteValue.text) ?? .null,
                      .text(type)])
        }
        return (fixture, try InMemorySource.copy(ofGeoPackage: fixture.sourcePath, name: "filters"))
    }

    @Test func everyFilterSelectsTheRowsSQLiteSelects() throws {
        let (fixture, memory) = try Self.source()
        let connection = try fixture.openSource().connection
        let table = try memory.table("airports").shape
        let shape = SourceBackendFixture.shape(table)
        for text in Self.expressions {
            let filter = try memory.layerFilter(text, table: "airports")
            let expression = try #require(filter.expression)
            let expected = Set(try connection.query("SELECT globalid FROM airports WHERE \(expression.sqlite)").compactMap { $0[0].stringValue })
            let ids = try memory.table("airports").rows.keys
            let chosen = Set(try ids.filter { try memory.meets(filter, globalID: $0, in: shape) })
            #expect(chosen == expected, "\(text): memory \(chosen.count) rows, SQLite \(expected.count)")
        }
    }

    @Test func aFilterOutsideTheGrammarIsRefusedNamingIt() throws {
        let (_, memory) = try Self.source()
        let error = try #require(throws: GeodatabaseError.self) { try memory.layerFilter("upper(type) = 'MAJOR'", table: "airports") }
        #expect(error.kind == .filter && error.message.contains("upper(type)") && error.message.contains("grammar"), "\(error)")
    }

    /// A layer cut by `--where`: rows come and go with the filter the source registered.
    @Test(arguments: SourceBackend.available)
    func aFilteredLayerTakesTheRowsThatComeToMeetItAndLosesTheOthers(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend, arguments: ["--where", "airports:type = 'major'"])
        #expect(try f.packageValue("airports", named: "Kodiak", "name") == nil)
        try f.officeUpdate("airports", named: "Kodiak", set: "type", to: .text("major"))
        try f.officeUpdate("airports", named: "Anchorage Int'l", set: "type", to: .text("mid"))
        try f.officeInsertAirport("Inside strip", x: -150, y: 61)
        let report = try f.sync()
        #expect(report.status == .completed, "\(report)")
        #expect(try f.packageValue("airports", named: "Kodiak", "type") == "'major'")
        #expect(try f.packageValue("airports", named: "Anchorage Int'l", "name") == nil)
        #expect(try f.packageValue("airports", named: "Inside strip", "name") == nil)
        #expect(try f.packageValue("airports", named: "Fairbanks Int'l", "type") == "'major'")
        #expect(try f.verify().differences.isEmpty)
    }
}
