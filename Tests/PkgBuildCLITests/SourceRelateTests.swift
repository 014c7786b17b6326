import Foundation
import Testing
import PkgBuildCLI
import TestSupport

@Suite struct SourceRelateTests {
    /// The demo source without its relationship: the committed file with the row removed.
    private func demoWithoutRelationship(_ directory: TemporaryDirectory) throws -> String {
        let source = try directory.copy(testdata: "demo/alaska_source.gpkg")
        _ = try runProcess("sqlite3", [source, "DELETE FROM pkgbuild_relationships"])
        return source
    }

    @Test func declaresAndRedeclares() throws {
        let directory = try TemporaryDirectory()
        let source = try demoWithoutRelationship(directory)

        let result = CLI.run(["source", "relate", source, "--origin", "parks.unit_code",
                              "--destination", "park_visitors.UNIT_CODE"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "Declared relationship parks_park_visitors: parks.unit_code -> park_visitors.unit_code (one-to-many).\n")
        #expect(try sqliteScalar(source, """
            SELECT name || '|' || origin_table || '.' || origin_key || '|' || destination_table || '.' || destination_key \
            || '|' || cardinality FROM pkgbuild_relationships
            """) == "parks_park_visitors|parks.unit_code|park_visitors.unit_code|one-to-many")

        let dump = try sqliteDump(source)
        let again = CLI.run(["source", "relate", source, "--origin", "parks.unit_code",
                             "--destination", "park_visitors.unit_code"])
        #expect(again.exitCode == 0)
        #expect(again.stdout.hasSuffix("was already declared; nothing changed.\n"))
        #expect(try sqliteDump(source) == dump)

        let changed = CLI.run(["source", "relate", source, "--origin", "parks.unit_code",
                               "--destination", "park_visitors.unit_code", "--cardinality", "one-to-one",
                               "--name", "parks_park_visitors", "--json"])
        #expect(changed.exitCode == 0)
        let json = try parseJSONObject(changed.stdout)
        #expect(json["cardinality"] as? String == "one-to-one")
        #expect(json["changed"] as? Bool == true)
        #expect((json["destination"] as? [String: Any])?["key"] as? String == "unit_code")
        #expect(try sqliteScalar(source, "SELECT count(*) || cardinality FROM pkgbuild_relationships") == "1one-to-one")
    }

    @Test(arguments: [
        ("nosuch.unit_code", "park_visitors.unit_code", "no table named 'nosuch'"),
        ("parks.unit_code", "park_visitors.nosuch", "table 'park_visitors' has no column 'nosuch'"),
    ])
    func unknownTableOrColumn(origin: String, destination: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let source = try demoWithoutRelationship(directory)
        let dump = try sqliteDump(source)
        let result = CLI.run(["source", "relate", source, "--origin", origin, "--destination", destination])
        #expect(result.exitCode == 1)
        #expect(result.stderr == "Error: \(source): \(message)\n")
        #expect(try sqliteDump(source) == dump)
    }

    @Test(arguments: [
        (["--origin", "parks", "--destination", "park_visitors.unit_code"],
         "The value 'parks' is invalid for '--origin <TABLE.COLUMN>': expected TABLE.COLUMN, such as parks.unit_code"),
        (["--origin", "parks.unit_code", "--destination", "park_visitors."],
         "The value 'park_visitors.' is invalid for '--destination <TABLE.COLUMN>': expected TABLE.COLUMN, such as parks.unit_code"),
        (["--origin", "parks.unit_code", "--destination", "park_visitors.unit_code", "--cardinality", "1:n"],
         "The value '1:n' is invalid for '--cardinality <one-to-one|one-to-many|many-to-many>': expected one of one-to-one, one-to-many, many-to-many"),
        (["--destination", "park_visitors.unit_code"], "Missing expected argument '--origin <TABLE.COLUMN>'"),
    ])
    func malformedArgumentsAreUsageErrors(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        let source = try demoWithoutRelationship(directory)
        let result = CLI.run(["source", "relate", source] + arguments)
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: \(message)\nUsage: pkgbuild source relate"))
        #expect(try sqliteScalar(source, "SELECT count(*) FROM pkgbuild_relationships") == "0")
    }
}
