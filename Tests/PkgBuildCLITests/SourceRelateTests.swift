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

    /// A destination table whose key may repeat (park_visitors' unit_code is UNIQUE).
    static let inspections = "CREATE TABLE inspections (fid INTEGER PRIMARY KEY, unit_code TEXT);\nINSERT INTO inspections (unit_code) VALUES "

    /// What the data breaks is refused, every problem named, nothing written.
    @Test(arguments: [
        ("", "parks.unit_code", "parks.unit_code", "one-to-many",
         "parks.unit_code is related to itself: the origin and destination keys are the same column"),
        ("", "parks.unit_code", "park_visitors.survey_year", "one-to-many",
         "parks.unit_code is TEXT (text) and park_visitors.survey_year is INTEGER (number): their values never compare equal"),
        ("", "parks.geom", "park_visitors.unit_code", "one-to-many", "parks.geom is a geometry column and cannot be a key"),
        (Self.inspections + "('DENA'), ('DENA'), ('LACL'), ('LACL'), ('LACL')",
         "parks.unit_code", "inspections.unit_code", "one-to-one",
         "inspections.unit_code repeats ('LACL' in 3 rows, 'DENA' in 2 rows), so an origin row would have several destination rows: one-to-one allows one"),
        ("UPDATE parks SET unit_code = 'DENA' WHERE unit_code IN ('LACL', 'KATM')",
         "parks.unit_code", "park_visitors.unit_code", "one-to-many",
         "parks.unit_code repeats ('DENA' in 3 rows), so a destination row would belong to several origin rows: one-to-many needs a unique origin key"),
    ])
    func whatTheDataBreaksIsRefused(setup: String, origin: String, destination: String, cardinality: String,
                                    message: String) throws {
        let directory = try TemporaryDirectory()
        let source = try demoWithoutRelationship(directory)
        if !setup.isEmpty { #expect(try pythonSQLite(source, setup).status == 0) }
        let dump = try sqliteDump(source)
        let result = CLI.run(["source", "relate", source, "--origin", origin, "--destination", destination,
                              "--cardinality", cardinality])
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: \(source): \(origin) -> \(destination) (\(cardinality)) is refused: "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try sqliteDump(source) == dump)
    }

    /// Repeats the cardinality allows are accepted; destination rows that match nothing are a warning.
    @Test func allowedRepeatsPassAndUnmatchedRowsAreAWarning() throws {
        let directory = try TemporaryDirectory()
        let source = try demoWithoutRelationship(directory)
        #expect(try pythonSQLite(source, Self.inspections + "('DENA'), ('DENA'), ('ZZZZ'), (NULL)").status == 0)
        let oneToMany = CLI.run(["source", "relate", source, "--origin", "parks.unit_code", "--destination", "inspections.unit_code", "--json"])
        #expect(oneToMany.exitCode == 0, "\(oneToMany.stderr)")
        #expect(oneToMany.stderr.contains("1 row of inspections has a unit_code that no parks row has: they relate to nothing"),
                "\(oneToMany.stderr)")
        #expect(try parseJSONObject(oneToMany.stdout)["unmatched_destination_rows"] as? Int == 1)
        #expect(try pythonSQLite(source, "UPDATE parks SET unit_code = 'DENA' WHERE unit_code = 'LACL'").status == 0)
        let manyToMany = CLI.run(["source", "relate", source, "--origin", "parks.unit_code", "--destination", "inspections.unit_code",
                                  "--cardinality", "many-to-many"])
        #expect(manyToMany.exitCode == 0, "\(manyToMany.stderr)")
    }

    /// An untyped key column is judged by the values it holds.
    @Test(arguments: [("'DENA'", true), ("42", false)])
    func anUntypedKeyIsJudgedByItsValues(value: String, accepted: Bool) throws {
        let directory = try TemporaryDirectory()
        let source = try demoWithoutRelationship(directory)
        let setup = "CREATE TABLE notes (fid INTEGER PRIMARY KEY, park);\nINSERT INTO notes (park) VALUES (\(value))"
        #expect(try pythonSQLite(source, setup).status == 0)
        let result = CLI.run(["source", "relate", source, "--origin", "parks.unit_code", "--destination", "notes.park"])
        #expect((result.exitCode == 0) == accepted, "\(result.stderr)")
        if !accepted {
            #expect(result.stderr.contains("parks.unit_code is TEXT (text) and notes.park is untyped (number)"), "\(result.stderr)")
        }
    }
}
