import Foundation
import Geodatabase
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Offline changes of values a UNIQUE index holds: shifts go up in the order that frees each
/// value first; an exchange no order allows is a conflict naming both rows; a real collision
/// is settled by taking the source's side, which discards the local change.
@Suite struct UniqueValueTests {
    /// The demo source with a unique index on airports.iata_code, and a package of it.
    static func fixture() throws -> (SyncFixture, URL, data: String) {
        let fixture = try SyncFixture()
        try ogrSQL(fixture.sourcePath, "CREATE UNIQUE INDEX airports_iata ON airports (iata_code)")
        let url = try fixture.makePackage()
        return (fixture, url, url.appendingPathComponent("data.gpkg").path)
    }

    func iata(_ connection: Connection, _ name: String) throws -> SQLiteValue? {
        try connection.scalar("SELECT iata_code FROM airports WHERE name = ?", [.text(name)])
    }

    @Test func aShiftOfUniqueValuesGoesUpInTheOrderThatFreesThem() throws {
        let (fixture, url, data) = try Self.fixture()
        // Fairbanks takes Kodiak's code first, then Kodiak a new one: in edit order, the first
        // write would collide.
        try ogrSQL(data, "UPDATE airports SET iata_code = 'ADQ' WHERE name = 'Fairbanks Int''l'")
        try ogrSQL(data, "UPDATE airports SET iata_code = 'KDK' WHERE name = 'Kodiak'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.updated == 2 && report.conflicts.isEmpty, "\(report.conflicts)")
        let source = try fixture.openSource().connection
        #expect(try iata(source, "Fairbanks Int'l") == "ADQ" && iata(source, "Kodiak") == "KDK")
    }

    @Test func anExchangeIsOneConflictNamingBothRowsAndOneDecisionSettlesIt() throws {
        let (fixture, url, data) = try Self.fixture()
        for sql in ["UPDATE airports SET iata_code = 'TMP' WHERE name = 'Kodiak'",
                    "UPDATE airports SET iata_code = 'ADQ' WHERE name = 'Fairbanks Int''l'",
                    "UPDATE airports SET iata_code = 'FAI' WHERE name = 'Kodiak'",
                    "UPDATE airports SET type = 'edited' WHERE name = 'Anchorage Int''l'"] { try ogrSQL(data, sql) }
        let stopped = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(stopped.exitCode == 2, "\(stopped.stdout) \(stopped.stderr)")
        let open = try PackageConflicts.list(package: url).map(\.conflict)
        let package = try fixture.openPackage(url).connection
        let ids = try ["Kodiak", "Fairbanks Int'l"].map {
            try #require(package.scalar("SELECT globalid FROM airports WHERE name = ?", [.text($0)])?.stringValue)
        }
        #expect(open.count == 1 && open.first?.kind == .constraint, "\(open)")
        #expect(Set(open.first?.rows ?? []) == Set(ids), "\(open)")
        #expect(ids.allSatisfy { open.first?.message?.contains($0) == true }, "\(open)")
        let json = CLI.run(["sync", url.path, "--source", fixture.sourcePath, "--json"])
        #expect(json.exitCode == 2 && json.stdout.contains("\"other_rows\""), "\(json.stdout)")
        // The package's side cannot win: refused, nothing recorded.
        let refused = CLI.run(["resolve", url.path, "--all", "--take", "package"])
        #expect(refused.exitCode == 1 && refused.stderr.contains("cannot win"), "\(refused.stderr)")
        #expect(try PackageConflicts.list(package: url).allSatisfy { $0.decision == nil })

        // One decision settles the exchange, named by either of its rows.
        let other = try #require(open.first?.otherRows.first)
        let decided = CLI.run(["resolve", url.path, "--id", other, "--take", "source"])
        #expect(decided.exitCode == 0, "\(decided.stdout) \(decided.stderr)")
        let settled = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(settled.exitCode == 0, "\(settled.stdout) \(settled.stderr)")
        let source = try fixture.openSource().connection
        #expect(try iata(package, "Kodiak") == "ADQ" && iata(package, "Fairbanks Int'l") == "FAI")
        #expect(try source.scalar("SELECT type FROM airports WHERE name = 'Anchorage Int''l'") == "edited")
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        #expect(try PackageConflicts.list(package: url).isEmpty)
    }

    /// A rotation of three values is one exchange too: one conflict naming the three rows.
    @Test func aRotationOfThreeValuesIsOneConflictNamingTheThreeRows() throws {
        let (fixture, url, data) = try Self.fixture()
        for sql in ["UPDATE airports SET iata_code = 'TMP' WHERE name = 'Kodiak'",
                    "UPDATE airports SET iata_code = 'ADQ' WHERE name = 'Fairbanks Int''l'",
                    "UPDATE airports SET iata_code = 'FAI' WHERE name = 'Anchorage Int''l'",
                    "UPDATE airports SET iata_code = 'ANC' WHERE name = 'Kodiak'"] { try ogrSQL(data, sql) }
        let codes = "SELECT group_concat(name || '=' || iata_code) FROM (SELECT * FROM airports ORDER BY name)"
        let before = try fixture.openSource().connection.scalar(codes)
        #expect(CLI.run(["sync", url.path, "--source", fixture.sourcePath, "--on-conflict", "package-wins"]).exitCode == 2)
        #expect(try fixture.openSource().connection.scalar(codes) == before)
        let open = try PackageConflicts.list(package: url).map(\.conflict)
        #expect(open.count == 1 && open.first?.rows.count == 3, "\(open)")
        #expect(CLI.run(["resolve", url.path, "--all", "--take", "source"]).exitCode == 0)
        #expect(CLI.run(["sync", url.path, "--source", fixture.sourcePath]).exitCode == 0)
        let package = try fixture.openPackage(url).connection
        #expect(try iata(package, "Kodiak") == "ADQ" && iata(package, "Fairbanks Int'l") == "FAI" && iata(package, "Anchorage Int'l") == "ANC")
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
    }

    /// A package whose conflict table predates `other_rows` lists its conflicts and takes new ones.
    @Test func aConflictTableWithoutOtherRowsIsReadAndGainsTheColumn() throws {
        let (fixture, url, data) = try Self.fixture()
        let made = try pythonSQLite(data, """
            CREATE TABLE pkgbuild_conflicts (id INTEGER PRIMARY KEY AUTOINCREMENT, sync_id TEXT NOT NULL, \
            table_name TEXT NOT NULL, globalid TEXT NOT NULL, column_name TEXT, kind TEXT NOT NULL, base_value TEXT, \
            package_value TEXT, source_value TEXT, resolution TEXT, resolved_by TEXT, message TEXT, decision TEXT, \
            status TEXT NOT NULL, recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
            INSERT INTO pkgbuild_conflicts (sync_id, table_name, globalid, kind, status) VALUES ('{OLD}', 'airports', '{X}', 'constraint', 'open');
            """)
        try #require(made.status == 0, "\(made.stderr)")
        #expect(try PackageConflicts.list(package: url).map(\.conflict.globalID) == ["{X}"])
        for sql in ["UPDATE airports SET iata_code = 'TMP' WHERE name = 'Kodiak'",
                    "UPDATE airports SET iata_code = 'ADQ' WHERE name = 'Fairbanks Int''l'",
                    "UPDATE airports SET iata_code = 'FAI' WHERE name = 'Kodiak'"] { try ogrSQL(data, sql) }
        #expect(CLI.run(["sync", url.path, "--source", fixture.sourcePath]).exitCode == 2)
        #expect(try PackageConflicts.list(package: url).map(\.conflict.otherRows.count) == [1])
    }

    /// Found by soak seed 37: an upload-only sync settles a row whose merged unique value (the
    /// office's) a pending local insert holds; the row keeps its copy and waits, listed as
    /// deferred, so verify calls it behind and a later download brings it, though its source
    /// change is this replica's own upload.
    @Test func aSettledRowThatWaitsInAnUploadOnlySyncComesDownLater() throws {
        let (fixture, url, data) = try Self.fixture()
        // The package holds the value unique too (create copies the table, not the index).
        try ogrSQL(data, "CREATE UNIQUE INDEX airports_iata ON airports (iata_code)")
        try ogrSQL(fixture.sourcePath, "UPDATE airports SET iata_code = 'NEW' WHERE name = 'Kodiak'")
        try ogrSQL(data, "UPDATE airports SET type = 'field' WHERE name = 'Kodiak'")
        try ogrSQL(data, """
            INSERT INTO airports (geom, name, iata_code, type) \
            SELECT geom, 'Kodiak strip', 'NEW', 'small' FROM airports WHERE name = 'Kodiak'
            """)
        let up = CLI.run(["sync", url.path, "--source", fixture.sourcePath, "--direction", "upload", "--on-conflict", "source-wins"])
        #expect(up.exitCode == 2, "\(up.stdout) \(up.stderr)")
        let source = try fixture.openSource().connection
        #expect(try source.scalar("SELECT type || ' ' || iata_code FROM airports WHERE name = 'Kodiak'") == "field NEW")
        let verify = CLI.run(["verify", url.path, "--source", fixture.sourcePath])
        #expect(verify.exitCode == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("behind"), "\(verify.stdout)")

        #expect(CLI.run(["resolve", url.path, "--all", "--take", "source"]).exitCode == 0)
        let settled = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(settled.exitCode == 0, "\(settled.stdout) \(settled.stderr)")
        let package = try fixture.openPackage(url).connection
        #expect(try package.scalar("SELECT type || ' ' || iata_code FROM airports WHERE name = 'Kodiak'") == "field NEW")
        #expect(try package.scalar("SELECT count(*) FROM airports WHERE name = 'Kodiak strip'") == 0)
        #expect(CLI.run(["verify", url.path, "--source", fixture.sourcePath]).exitCode == 0)
    }

    @Test func aCollisionWithAnOfficeRowDoesNotHoldBackTheOtherEditsOnceSettled() throws {
        let (fixture, url, data) = try Self.fixture()
        try ogrSQL(fixture.sourcePath, "UPDATE airports SET iata_code = 'NEW' WHERE name = 'Bethel'")
        try ogrSQL(data, "UPDATE airports SET iata_code = 'NEW' WHERE name = 'Kodiak'")
        try ogrSQL(data, "UPDATE airports SET type = 'edited' WHERE name = 'Anchorage Int''l'")
        let stopped = try fixture.sync(url)
        #expect(stopped.status == .stoppedOnConflicts && stopped.conflicts.first?.message?.contains("held at the source") == true,
                "\(stopped.conflicts)")
        let kodiak = try #require(stopped.conflicts.first?.globalID)
        #expect(CLI.run(["resolve", url.path, "--id", kodiak, "--take", "source"]).exitCode == 0)
        #expect(try fixture.sync(url).status == .completed)
        let package = try fixture.openPackage(url).connection
        // Bethel lies outside the package: its office code stays at the source only.
        #expect(try iata(package, "Kodiak") == "ADQ" && iata(fixture.openSource().connection, "Bethel") == "NEW")
        #expect(try fixture.openSource().connection.scalar("SELECT type FROM airports WHERE name = 'Anchorage Int''l'") == "edited")
    }
}
