import Foundation
import Geodatabase
import Geometry
import PkgBuildCLI
import PostgreSQLSource
import SourceDrivers
import Testing
import TestSupport

/// Writes refused one by one in one transaction, without a savepoint per row.
@Suite(.needsPostgreSQL) struct RowWriterTests {
    let fixture: PostgreSQLSourceFixture
    let source: any SyncSource
    let shape = TableShape(name: "airports", keyColumn: "fid", globalIDColumn: "globalid", columns: ["name", "iata_code"])

    init() throws {
        fixture = try PostgreSQLSourceFixture()
        try fixture.psql("ALTER TABLE airports ALTER COLUMN name SET NOT NULL; CREATE UNIQUE INDEX airports_iata ON airports (iata_code)")
        #expect(CLI.run(["source", "enable", fixture.address]).exitCode == 0)
        source = try PostgreSQLSourceDriver().openSyncSource(fixture.address, options: SourceOpenOptions())
    }

    private func insert(_ name: SourceValue, _ code: String) -> SourceWrite {
        .insert(SourceRow(columns: ["globalid", "name", "iata_code"], values: [.text("{" + UUID().uuidString + "}"), name, .text(code)]))
    }

    @Test func refusedRowsLeaveNothingAndEveryOtherWriteStays() throws {
        let taken = try fixture.psql("SELECT iata_code FROM airports WHERE iata_code IS NOT NULL ORDER BY fid LIMIT 1")
        let before = Int(try fixture.psql("SELECT count(*) FROM airports"))!
        var refusals: [SourceRefusal] = []
        try source.withApplyContext(replicaID: "{R}", syncID: "{S}") {
            for index in 0..<300 {
                let write: SourceWrite
                switch index {
                case 50: write = insert(.null, "N50")                     // NOT NULL
                case 140: write = insert(.text("Dup"), taken)             // unique
                case 299: write = insert(.textBytes([0x4D, 0xFC, 0x6E]), "L299") // Latin-1 "Mün"
                default: write = insert(.text("Strip \(index)"), "C\(index)")
                }
                if case .refused(let refusal) = try source.apply(write, in: shape) { refusals.append(refusal) }
            }
        }
        #expect(refusals.count == 3)
        #expect(refusals.map(\.uniqueColumns) == [nil, ["iata_code"], nil])
        #expect(refusals.last?.message.contains("encoding") == true, "\(refusals.last?.message ?? "")")
        #expect(Int(try fixture.psql("SELECT count(*) FROM airports")) == before + 297)
        #expect(try fixture.psql("SELECT count(*) FROM airports WHERE name LIKE 'Strip %'") == "297")
        #expect(try fixture.psql("SELECT count(*) FROM pkgbuild.changes WHERE sync_id = '{S}'") == "297")
    }

    @Test func anUpdateOrDeleteOfAnUnknownGlobalIDIsNotFound() throws {
        let unknown = "{" + UUID().uuidString + "}"
        let outcomes = try source.withApplyContext(replicaID: "{R}", syncID: "{S}") {
            [try source.apply(.delete(globalID: unknown), in: shape),
             try source.apply(.update(globalID: unknown, SourceRow(columns: ["name"], values: [.text("x")])), in: shape)]
        }
        #expect(outcomes == [.applied(found: false), .applied(found: false)])
    }
}
