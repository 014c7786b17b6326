import Foundation
import Geometry
import PkgBuildCLI
import Testing
import TestSupport

/// Every command's `--json` (and `inspect --geojson`) names its fields in snake_case, like the
/// columns of the databases (replica_id, table_name, extraction_generation). Feature
/// attributes echo the layer's column names and are the user's, so they are not checked.
@Suite struct JSONKeyTests {
    static let area = "--area=-153.5,60.8,-147.5,64.3"
    static let raster = TestData.url("ne_raster_z0-5.mbtiles").path

    /// Every key of every object in a JSON document, with the path it was found at; objects
    /// under `attributes` (a feature's own columns) are skipped.
    static func keys(of value: Any, path: String = "$") -> [(path: String, key: String)] {
        if let object = value as? [String: Any] {
            return object.flatMap { key, member -> [(path: String, key: String)] in
                let inner = key == "attributes" ? [] : keys(of: member, path: "\(path).\(key)")
                return [(path, key)] + inner
            }
        }
        if let array = value as? [Any] {
            return array.enumerated().flatMap { keys(of: $0.element, path: "\(path)[\($0.offset)]") }
        }
        return []
    }

    static func isSnakeCase(_ key: String) -> Bool {
        key.range(of: "^[a-z][a-z0-9_]*$", options: .regularExpression) != nil
    }

    /// Runs a command that prints JSON and returns its non-snake_case keys, and how many keys it had.
    func badKeys(_ argv: [String], exitCode: Int32 = 0) throws -> (bad: [String], count: Int) {
        let result = CLI.run(argv)
        #expect(result.exitCode == exitCode, "\(argv.prefix(2)): \(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
        let all = Self.keys(of: document)
        return (all.filter { !Self.isSnakeCase($0.key) }.map { "\($0.path).\($0.key)" }, all.count)
    }

    @Test func everyCommandsJSONKeysAreSnakeCase() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let package = dir.path("denali.pkg")
        // A local edit and a source edit of the same column, so that changes, sync and
        // conflicts have something to say.
        let localEdit = ["edit", package, "--layer", "park_visitors", "--id", "1", "--set", "annual_visitors=50,000-100,000", "--json"]
        let sourceEdit = "UPDATE park_visitors SET annual_visitors = '10,000-50,000' WHERE unit_code = 'DENA'"

        var runs: [(name: String, argv: [String], exitCode: Int32)] = [
            ("tiles --dry-run", ["tiles", Self.area, "--zoom", "0-5", "--from", Self.raster, "--dry-run", "--json"], 0),
            ("tiles", ["tiles", Self.area, "--zoom", "0-3", "--from", Self.raster, "-o", dir.path("t.mbtiles"), "--json"], 0),
            ("estimate", ["estimate", Self.area, "--features", source, "--tiles", Self.raster, "--zoom", "0-5", "--json"], 0),
            ("create", ["create", Self.area, "--features", source, "--tiles", Self.raster, "--zoom", "0-5", "-o", package, "--json"], 0),
            ("source enable", ["source", "enable", source, "--json"], 0),
            ("source relate", ["source", "relate", source, "--origin", "parks.unit_code",
                               "--destination", "park_visitors.unit_code", "--cardinality", "one-to-one",
                               "--name", "parks_visitors", "--json"], 0),
            ("edit", localEdit, 0),
        ]
        var checked: [String: Int] = [:]
        for run in runs {
            let (bad, count) = try badKeys(run.argv, exitCode: run.exitCode)
            #expect(bad.isEmpty, "\(run.name): \(bad)")
            checked[run.name] = count
        }
        let edited = try runProcess("sqlite3", [source, sourceEdit])
        #expect(edited.status == 0, "\(edited.stderr)")

        runs = [
            ("source status", ["source", "status", source, "--json"], 0),
            ("source replicas", ["source", "replicas", source, "--json"], 0),
            ("inspect", ["inspect", package, "--json"], 0),
            ("inspect --geojson", ["inspect", package, "--geojson"], 0),
            ("changes", ["changes", package, "--json"], 0),
            ("identify", ["identify", package, "--at", "-149.982,61.173", "--tolerance", "50m", "--json"], 0),
            ("related", ["related", package, "--layer", "parks", "--id", "60", "--json"], 0),
            ("sync --dry-run", ["sync", package, "--dry-run", "--json"], 2),
            ("sync", ["sync", package, "--json"], 2),
            ("conflicts", ["conflicts", package, "--json"], 0),
        ]
        for run in runs {
            let (bad, count) = try badKeys(run.argv, exitCode: run.exitCode)
            #expect(bad.isEmpty, "\(run.name): \(bad)")
            checked[run.name] = count
        }
        // Each output had fields to check (a test of empty arrays would prove nothing).
        for (name, count) in checked { #expect(count > 0, "\(name) printed no object keys") }
        // The conflict is there to be listed, with its fields.
        #expect((checked["conflicts"] ?? 0) >= 9)

        // manifest.json is snake_case too.
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: package + "/manifest.json")))
        let manifestKeys = Self.keys(of: manifest).filter { $0.path != "$.files" }
        #expect(manifestKeys.filter { !Self.isSnakeCase($0.key) }.isEmpty, "\(manifestKeys.map(\.key))")
        #expect(manifestKeys.contains { $0.key == "format_version" } && manifestKeys.contains { $0.key == "replica_id" })
    }

    /// A package built before manifest.json was snake_case (`formatVersion`, `replicaID`,
    /// `minZoom`...) still reads, for inspect and for sync, with no manifest warning.
    @Test func aCamelCaseManifestStillReads() throws {
        let fixture = try InspectFixture()
        let before = try fixture.inspect()
        let camelCase = ["format_version": "formatVersion", "replica_id": "replicaID", "data_type": "dataType",
                         "geometry_type": "geometryType", "min_zoom": "minZoom", "max_zoom": "maxZoom",
                         "reprojected_from": "reprojectedFrom", "schema_only": "schemaOnly", "related_rows": "relatedRows"]
        func rename(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return Dictionary(uniqueKeysWithValues: object.map { (camelCase[$0.key] ?? $0.key, rename($0.value)) })
            }
            if let array = value as? [Any] { return array.map(rename) }
            return value
        }
        try fixture.editManifest { manifest in manifest = rename(manifest) as? [String: Any] ?? [:] }
        let text = try String(contentsOfFile: fixture.manifest, encoding: .utf8)
        #expect(text.contains("\"formatVersion\"") && text.contains("\"minZoom\"") && !text.contains("format_version"))

        let after = try fixture.inspect()
        #expect((after["warnings"] as? [Any])?.count == (before["warnings"] as? [Any])?.count, "\(after["warnings"] ?? "")")
        #expect(after["tiles"] as? NSDictionary == before["tiles"] as? NSDictionary)
        #expect(after["layers"] as? NSArray == before["layers"] as? NSArray)
        let sync = CLI.run(["sync", fixture.package, "--dry-run"])
        #expect(sync.exitCode == 0, "\(sync.stderr)")

        // Another format version is still refused, whichever spelling names it.
        try fixture.editManifest { $0["formatVersion"] = 2 }
        let refused = CLI.run(["inspect", fixture.package])
        #expect(refused.exitCode == 1)
        #expect(refused.stderr.contains("has package format version 2"), "\(refused.stderr)")
    }
}
