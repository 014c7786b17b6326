import Foundation
import Geometry
import Testing
import PkgBuildCLI
import TestSupport

@Suite struct SourceStatusTests {
    @Test func jsonShapeOfTheDemoSource() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.copy(testdata: "demo/alaska_source.gpkg")
        // A replica as `create` registers it, written with sqlite3 so the test does not lean
        // on our own registry code.
        _ = try runProcess("sqlite3", [source, """
            INSERT INTO pkgbuild_replicas (replica_id, name, state, extraction_generation, sync_generation, layers)
            VALUES ('r-1', 'denali', 'pending', 0, 0, '["parks","airports"]')
            """])

        let result = CLI.run(["source", "status", source, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try parseJSONObject(result.stdout)
        #expect(json["source"] as? String == source)
        #expect(json["enabled"] as? Bool == true)
        #expect(json["generation"] as? Int == 0)
        #expect(json["journal_mode"] as? String == "delete")

        let tables = try #require(json["tables"] as? [[String: Any]])
        #expect(tables.map { $0["name"] as? String } == ["parks", "airports", "park_visitors"])
        #expect(tables.map { $0["kind"] as? String } == ["features", "features", "attributes"])
        for table in tables {
            let name = try #require(table["name"] as? String)
            #expect(table["rows"] as? Int == (try ogrFeatureCount(source, layer: name)))
            #expect(table["tracked"] as? Bool == true)
            #expect(table["global_id_column"] as? String == "globalid")
        }

        let replicas = try #require(json["replicas"] as? [[String: Any]])
        #expect(replicas.count == 1)
        #expect(replicas.first?["id"] as? String == "r-1")
        #expect(replicas.first?["name"] as? String == "denali")
        #expect(replicas.first?["state"] as? String == "pending")
        #expect(replicas.first?["extraction_generation"] as? Int == 0)
        #expect(replicas.first?["layers"] as? [String] == ["parks", "airports"])
        #expect(replicas.first?["last_sync_at"] is NSNull)

        let relationships = try #require(json["relationships"] as? [[String: Any]])
        #expect(relationships.count == 1)
        let relationship = try #require(relationships.first)
        #expect(relationship["name"] as? String == "parks_visitors")
        #expect(relationship["cardinality"] as? String == "one-to-one")
        #expect(relationship["storage"] as? String == "keys")
        #expect((relationship["origin"] as? [String: Any])?["table"] as? String == "parks")
        #expect((relationship["destination"] as? [String: Any])?["table"] as? String == "park_visitors")

        let text = CLI.run(["source", "status", source])
        #expect(text.exitCode == 0)
        #expect(text.stdout.contains("Sync-enabled, generation 0, journal mode delete\n"))
        #expect(text.stdout.contains("r-1      denali  pending"))
        #expect(text.stdout.contains("parks_visitors  parks.unit_code  park_visitors.unit_code  one-to-one   keys"))
    }

    @Test func aGeoPackageNotYetEnabled() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.copy(testdata: "ne_parks.gpkg")
        let dump = try sqliteDump(source)
        let result = CLI.run(["source", "status", source, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try parseJSONObject(result.stdout)
        #expect(json["enabled"] as? Bool == false)
        #expect(json["generation"] is NSNull)
        let tables = try #require(json["tables"] as? [[String: Any]])
        #expect(tables.count == 1)
        #expect(tables.first?["tracked"] as? Bool == false)
        #expect(tables.first?["rows"] as? Int == (try ogrFeatureCount(source, layer: "parks")))
        #expect(try sqliteDump(source) == dump)
        #expect(CLI.run(["source", "status", source]).stdout.contains("Not sync-enabled"))
    }

    @Test(arguments: [["enable"], ["status"], ["status", "--json"],
                      ["relate", "--origin", "a.b", "--destination", "c.d"],
                      ["replicas"], ["replicas", "--json"], ["unregister", "r-1"]])
    func missingSourceIsAnErrorAndCreatesNothing(command: [String]) throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("missing.gpkg")
        // Under --json the same words come as a JSON error (JSONErrorTests holds its shape).
        func expected(_ message: String, _ path: String) -> String {
            command.contains("--json")
                ? #"{"error":{"kind":"not_a_geopackage","message":"\#(message)","input":"\#(path)"}}"# + "\n"
                : "Error: \(message)\n"
        }
        let result = CLI.run(["source", command[0], missing] + command.dropFirst())
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == expected("\(missing): no such file", missing))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])

        // A directory is not taken for a source either, and nothing appears inside it.
        let folder = directory.path("folder.gpkg")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let onFolder = CLI.run(["source", command[0], folder] + command.dropFirst())
        #expect(onFolder.exitCode == 1)
        #expect(onFolder.stderr == expected("\(folder) is a directory, not a GeoPackage", folder))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
    }

    @Test(arguments: [["enable"], ["status"], ["relate", "--origin", "a.b", "--destination", "c.d"],
                      ["replicas"], ["unregister", "r-1"]])
    func notAGeoPackageIsAnError(command: [String]) throws {
        let directory = try TemporaryDirectory()
        // A real file that is not SQLite, and an SQLite database without the GeoPackage tables.
        let text = try directory.copy(testdata: "README.md")
        let plainSQLite = directory.path("plain.sqlite")
        _ = try runProcess("sqlite3", [plainSQLite, "CREATE TABLE t (x); INSERT INTO t VALUES (1);"])
        let plainDump = try sqliteDump(plainSQLite)

        for path in [text, plainSQLite] {
            let result = CLI.run(["source", command[0], path] + command.dropFirst())
            #expect(result.exitCode == 1)
            #expect(result.stderr.hasPrefix("Error: \(path) is not a GeoPackage"), "\(result.stderr)")
        }
        #expect(try sqliteDump(plainSQLite) == plainDump)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path)) == ["README.md", "plain.sqlite"])
    }
}
