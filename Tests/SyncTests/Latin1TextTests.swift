import Foundation
import Geodatabase
import Geometry
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Text that is not UTF-8 (Latin-1 from older GeoPackage clients) travels byte for byte through
/// create, upload, download, the changeset export and every display, and a sync of it converges.
/// The bytes are written by other clients (GDAL's SQL, Python's sqlite3) and judged by sqlite3's
/// `hex()` and pygeodiff, never by our own reader.
@Suite struct Latin1TextTests {
    /// Latin-1 "Doña" and "Doña Inés".
    static let doña = "446FF161", doñaInés = "446FF16120496EE973", señor = "5365F16F72"

    /// Kodiak's name at the source set to Latin-1 "Doña" with Python's sqlite3 (the GeoPackage
    /// functions the R-tree triggers call registered, as a field app would), then a package made.
    static func makeLatin1Package() throws -> (SyncFixture, URL, globalID: String) {
        let fixture = try SyncFixture()
        try python(fixture.sourcePath, "UPDATE airports SET name = CAST(x'\(doña)' AS TEXT) WHERE name = 'Kodiak'")
        let globalID = try sqlite3(fixture.sourcePath, "SELECT globalid FROM airports WHERE hex(name) = '\(doña)'")
        #expect(globalID.hasPrefix("{"))
        let url = try fixture.makePackage()
        return (fixture, url, globalID)
    }

    static func data(_ url: URL) -> String { url.appendingPathComponent("data.gpkg").path }

    /// `typeof(name) hex(name)` of the row, by sqlite3.
    static func name(_ path: String, _ globalID: String) throws -> String {
        try sqlite3(path, "SELECT typeof(name) || ' ' || hex(name) FROM airports WHERE globalid = '\(globalID)'")
    }

    @Test func createKeepsTheBytesAndAnEditOfAnotherColumnSyncsAndConverges() throws {
        let (fixture, url, id) = try Self.makeLatin1Package()
        #expect(try Self.name(Self.data(url), id) == "text \(Self.doña)")

        try gdal(Self.data(url), "UPDATE airports SET scalerank = 5 WHERE globalid = '\(id)'")
        let first = try fixture.sync(url)
        #expect(first.status == .completed && first.uploaded.updated == 1 && first.downloaded.total == 0)
        #expect(try Self.name(fixture.sourcePath, id) == "text \(Self.doña)")
        #expect(try sqlite3(fixture.sourcePath, "SELECT scalerank FROM airports WHERE globalid = '\(id)'") == "5")
        #expect(try Self.name(Self.data(url), id) == "text \(Self.doña)")
        try Self.expectConverged(fixture, url)
    }

    @Test func createKeepsALatin1LayerDescription() throws {
        let fixture = try SyncFixture()
        try sqlite3(fixture.sourcePath, "UPDATE gpkg_contents SET description = CAST(x'\(Self.doña)' AS TEXT) WHERE table_name = 'airports'")
        let url = try fixture.makePackage()
        #expect(try sqlite3(Self.data(url), "SELECT hex(description) FROM gpkg_contents WHERE table_name = 'airports'") == Self.doña)
        try fixture.expectGDALValid(url)
    }

    @Test func anOfflineEditOfTheLatin1TextUploadsItsBytes() throws {
        let (fixture, url, id) = try Self.makeLatin1Package()
        try python(Self.data(url), "UPDATE airports SET name = CAST(x'\(Self.doñaInés)' AS TEXT) WHERE globalid = '\(id)'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.updated == 1)
        #expect(try Self.name(fixture.sourcePath, id) == "text \(Self.doñaInés)")
        #expect(try Self.name(Self.data(url), id) == "text \(Self.doñaInés)")
        try Self.expectConverged(fixture, url)
    }

    @Test func anOfficeChangeToLatin1TextDownloadsItsBytes() throws {
        let (fixture, url, id) = try Self.makeLatin1Package()
        try gdal(fixture.sourcePath, "UPDATE airports SET name = CAST(x'\(Self.doñaInés)' AS TEXT) WHERE globalid = '\(id)'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.downloaded.updated == 1)
        #expect(try Self.name(Self.data(url), id) == "text \(Self.doñaInés)")
        try Self.expectConverged(fixture, url)
    }

    @Test func bothSidesChangingLatin1TextConflictWithTheBytesShownEscaped() throws {
        let (fixture, url, id) = try Self.makeLatin1Package()
        try python(Self.data(url), "UPDATE airports SET name = CAST(x'\(Self.doñaInés)' AS TEXT) WHERE globalid = '\(id)'")
        try gdal(fixture.sourcePath, "UPDATE airports SET name = CAST(x'\(Self.señor)' AS TEXT) WHERE globalid = '\(id)'")
        let report = try fixture.sync(url)
        #expect(report.status == .stoppedOnConflicts)
        let conflict = try #require(report.conflicts.first { $0.column == "name" }, "\(report.conflicts)")
        #expect(conflict.baseValue == "Do\\xF1a" && conflict.packageValue == "Do\\xF1a In\\xE9s" && conflict.sourceValue == "Se\\xF1or")
        #expect(try sqlite3(Self.data(url), "SELECT base_value || '|' || package_value || '|' || source_value FROM pkgbuild_conflicts")
            == "Do\\xF1a|Do\\xF1a In\\xE9s|Se\\xF1or")
        // Nothing was applied: both sides keep their own bytes.
        #expect(try Self.name(Self.data(url), id) == "text \(Self.doñaInés)")
        #expect(try Self.name(fixture.sourcePath, id) == "text \(Self.señor)")

        let resolved = try fixture.sync(url, policy: .packageWins)
        #expect(resolved.status == .completed)
        #expect(try Self.name(fixture.sourcePath, id) == "text \(Self.doñaInés)")
        try Self.expectConverged(fixture, url)
    }

    @Test func pygeodiffAppliesTheExportedChangesetWithTheSameBytes() throws {
        let (fixture, url, id) = try Self.makeLatin1Package()
        let base = fixture.directory.path("base.gpkg")
        try fixture.openPackage(url).connection.execute("VACUUM INTO '\(base)'")
        try gdal(Self.data(url), "UPDATE airports SET name = CAST(x'\(Self.doñaInés)' AS TEXT) WHERE globalid = '\(id)'")
        let changeset = fixture.directory.path("edits.changeset")
        let result = CLI.run(["changes", url.path, "--changeset", changeset])
        #expect(result.exitCode == 0, "\(result.stderr)")

        // geodiff checks each UPDATE's old values against the row: a mangled old name is a
        // conflict it would not apply.
        let apply = try runProcess(TestData.venvPython, ["-c", """
            import sys, pygeodiff
            pygeodiff.GeoDiff().apply_changeset(sys.argv[1], sys.argv[2])
            """, base, changeset])
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(try Self.name(base, id) == "text \(Self.doñaInés)")
    }

    @Test func theCLIShowsLatin1TextEscaped() throws {
        let (fixture, url, id) = try Self.makeLatin1Package()
        defer { withExtendedLifetime(fixture) {} }
        let edit = CLI.run(["edit", url.path, "--layer", "airports", "--id", id, "--set", "scalerank=5"])
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        #expect(edit.stdout.contains("name = Do\\xF1a"), "\(edit.stdout)")
        #expect(!edit.stdout.contains("\u{FFFD}"))
        // The edit of another column left the Latin-1 name as it was.
        #expect(try Self.name(Self.data(url), id) == "text \(Self.doña)")

        try gdal(Self.data(url), "UPDATE airports SET name = CAST(x'\(Self.doñaInés)' AS TEXT) WHERE globalid = '\(id)'")
        let changes = CLI.run(["changes", url.path, "--json"])
        #expect(changes.exitCode == 0, "\(changes.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(changes.stdout.utf8)) as? [[String: Any]] ?? []
        let nameChange = (json.first?["changes"] as? [[String: Any]] ?? []).first { $0["column"] as? String == "name" }
        #expect(nameChange?["old"] as? String == "Do\\xF1a" && nameChange?["new"] as? String == "Do\\xF1a In\\xE9s",
                "\(changes.stdout)")
    }

    /// Latin-1 keys of a relationship: create follows them to the related row, `related` finds
    /// it, and an office change of the related row comes down (keys matched as bytes, not as
    /// U+FFFD text that matches nothing).
    @Test func relationshipKeysInLatin1ArePackagedRelatedAndSynced() throws {
        let fixture = try SyncFixture()
        let dénaLatin1 = "44C94E41"
        for table in ["parks", "park_visitors"] {
            try gdal(fixture.sourcePath, "UPDATE \(table) SET unit_code = CAST(x'\(dénaLatin1)' AS TEXT) WHERE unit_code = 'DENA'")
        }
        let url = try fixture.makePackage()
        let data = Self.data(url)
        #expect(try sqlite3(data, "SELECT count(*) FROM park_visitors WHERE hex(unit_code) = '\(dénaLatin1)'") == "1")
        let park = try sqlite3(data, "SELECT globalid FROM parks WHERE hex(unit_code) = '\(dénaLatin1)'")

        let related = CLI.run(["related", url.path, "--layer", "parks", "--id", park, "--json"])
        #expect(related.exitCode == 0, "\(related.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(related.stdout.utf8)) as? [[String: Any]] ?? []
        let visitors = rows.first { $0["layer"] as? String == "park_visitors" }
        #expect((visitors?["attributes"] as? [String: Any])?["unit_code"] as? String == "D\\xC9NA", "\(related.stdout)")

        try gdal(fixture.sourcePath, "UPDATE park_visitors SET survey_year = 2031 WHERE hex(unit_code) = '\(dénaLatin1)'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.downloaded.updated == 1)
        #expect(try sqlite3(data, "SELECT survey_year || ' ' || hex(unit_code) FROM park_visitors WHERE hex(unit_code) = '\(dénaLatin1)'")
            == "2031 \(dénaLatin1)")
        try Self.expectConverged(fixture, url)
    }

    /// A second sync finds nothing to do: no upload, no download, no conflict, nothing pending.
    static func expectConverged(_ fixture: SyncFixture, _ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let again = try fixture.sync(url)
        #expect(again.status == .completed && again.uploaded.total == 0 && again.downloaded.total == 0
                && again.conflicts.isEmpty && again.pendingAfter == 0,
                "second sync: up \(again.uploaded.total), down \(again.downloaded.total), \(again.conflicts)",
                sourceLocation: sourceLocation)
    }
}

/// Runs SQL with sqlite3 and returns its output, trimmed.
@discardableResult
private func sqlite3(_ path: String, _ sql: String) throws -> String {
    let r = try runProcess("sqlite3", [path, sql])
    #expect(r.status == 0, "sqlite3 \(sql): \(r.stderr)")
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs SQL through GDAL (`ogrinfo -sql`), as a GIS user would.
private func gdal(_ path: String, _ sql: String) throws {
    let r = try runProcess("ogrinfo", ["-q", path, "-sql", sql])
    #expect(r.status == 0 && !r.stderr.contains("ERROR"), "ogrinfo \(sql): \(r.stderr)")
}

/// Runs SQL with Python's sqlite3, with text read as bytes. The functions GDAL's R-tree
/// triggers call must exist for any UPDATE to compile; these edits leave geometries alone,
/// so the triggers that would call them never run (a call fails the statement).
private func python(_ path: String, _ sql: String) throws {
    let r = try runProcess("/usr/bin/python3", ["-c", """
        import sqlite3, sys
        def geometry_untouched(g):
            raise ValueError('this helper edits attributes only')
        db = sqlite3.connect(sys.argv[1])
        db.text_factory = bytes
        for name in ('ST_MinX', 'ST_MaxX', 'ST_MinY', 'ST_MaxY', 'ST_IsEmpty'):
            db.create_function(name, 1, geometry_untouched)
        db.execute(sys.argv[2])
        db.commit()
        """, path, sql])
    #expect(r.status == 0, "python sqlite3 \(sql): \(r.stderr)")
}
