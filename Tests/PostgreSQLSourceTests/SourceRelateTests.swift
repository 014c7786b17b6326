import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// `source relate` on PostgreSQL: checked as on a GeoPackage, kept in pkgbuild.relationships,
/// and `create` then brings related rows along.
@Suite(.needsPostgreSQL) struct SourceRelateTests {
    @Test func aDeclaredRelationshipBringsRelatedRowsIntoThePackage() throws {
        let source = try PostGISSource()
        #expect(CLI.run(["source", "enable", source.address]).exitCode == 0)
        let arguments = ["source", "relate", source.address, "--origin", "parks.unit_code", "--destination", "park_visitors.unit_code"]
        let declared = CLI.run(arguments + ["--json"])
        #expect(declared.exitCode == 0, "\(declared.stderr)")
        #expect(declared.stdout.contains("\"changed\" : true") || declared.stdout.contains("\"changed\": true"), "\(declared.stdout)")
        #expect(try source.psql("SELECT name || ' ' || cardinality FROM pkgbuild.relationships") == "parks_park_visitors one-to-many")
        let again = CLI.run(arguments)
        #expect(again.exitCode == 0 && (again.stdout + again.stderr).contains("already declared; nothing changed"), "\(again.stderr) \(again.stdout)")

        let directory = try TemporaryDirectory("pkgbuild-relate")
        let package = directory.path("p.pkg")
        let created = CLI.run(["create", "--area=-160,57,-140,66", "--features", source.address, "--related", "--output", package])
        try #require(created.exitCode == 0, "\(created.stderr)")
        let visitors = try runProcess("/usr/bin/sqlite3", [package + "/data.gpkg", "SELECT count(*) FROM park_visitors"])
        #expect(Int(visitors.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0, "\(visitors.stdout)")
    }

    @Test func aRelationshipTheDataBreaksIsRefusedAndNothingIsWritten() throws {
        let source = try PostGISSource()
        #expect(CLI.run(["source", "enable", source.address]).exitCode == 0)
        let selfRelated = CLI.run(["source", "relate", source.address, "--origin", "parks.unit_code", "--destination", "parks.unit_code"])
        #expect(selfRelated.exitCode == 1 && selfRelated.stderr.contains("related to itself"), "\(selfRelated.stderr)")
        let kinds = CLI.run(["source", "relate", source.address, "--origin", "parks.fid", "--destination", "park_visitors.unit_code"])
        #expect(kinds.exitCode == 1 && kinds.stderr.contains("never compare equal"), "\(kinds.stderr)")
        let missing = CLI.run(["source", "relate", source.address, "--origin", "parks.nothing", "--destination", "park_visitors.unit_code"])
        #expect(missing.exitCode == 1 && missing.stderr.contains("has no column nothing"), "\(missing.stderr)")
        #expect(try source.psql("SELECT count(*) FROM pkgbuild.relationships") == "0")
    }
}
