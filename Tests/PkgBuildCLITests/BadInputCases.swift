import Foundation
import Geometry
import TestSupport

/// The bad inputs of `PlainErrorTests`: every command that takes a source, a package or an
/// area, given a file that is not what it should be.
enum BadInputCases {
    static let area = "--area=-153.5,60.8,-147.5,64.3"
    static let tiles = TestData.url("ne_raster_z0-5.mbtiles").path

    static func notADatabase(_ f: BadInputFixture) throws { try f.text("hello, not a database\n", at: f.bad) }
    static func directory(_ f: BadInputFixture) throws { try f.folder(at: f.bad) }
    static func none(_ f: BadInputFixture) throws {}

    static let notSQLite = "{bad} is not a GeoPackage: it is not an SQLite database"
    static let aDirectory = "{bad} is not a GeoPackage: it is a directory"

    static let sources: [BadInputCase] = [
        .init(what: "--features: a text file", arguments: ["estimate", area, "--features", "{bad}"],
              breakInput: notADatabase, expected: ["source " + notSQLite]),
        .init(what: "--features: a directory", arguments: ["estimate", area, "--features", "{bad}"],
              breakInput: directory, expected: ["source " + aDirectory]),
        .init(what: "--features: a text file", arguments: ["create", area, "--features", "{bad}", "-o", "{dir}/o.pkg"],
              breakInput: notADatabase, expected: ["source " + notSQLite]),
        .init(what: "--features: a directory", arguments: ["create", area, "--features", "{bad}", "-o", "{dir}/o.pkg"],
              breakInput: directory, expected: ["source " + aDirectory]),
        .init(what: "--tiles: a directory",
              arguments: ["create", area, "--features", "{src}", "--tiles", "{bad}", "--zoom", "0-3", "-o", "{dir}/o.pkg"],
              breakInput: directory, expected: ["{bad}: cannot be read as MBTiles: it is a directory"]),
        .init(what: "--tiles: a text file", arguments: ["estimate", area, "--features", "{src}", "--tiles", "{bad}", "--zoom", "0-3"],
              breakInput: notADatabase, expected: ["{bad}: cannot be read as MBTiles: it is not an SQLite database"]),
        .init(what: "--from: a text file", arguments: ["tiles", area, "--zoom", "0-3", "--from", "{bad}", "-o", "{dir}/t.mbtiles"],
              breakInput: notADatabase, expected: ["{bad}: cannot be read as MBTiles: it is not an SQLite database"]),
        .init(what: "--from: a directory", arguments: ["tiles", area, "--zoom", "0-3", "--from", "{bad}", "-o", "{dir}/t.mbtiles"],
              breakInput: directory, expected: ["{bad}: cannot be read as MBTiles: it is a directory"]),
        .init(what: "-o in a missing directory", arguments: ["tiles", area, "--zoom", "0-3", "--from", tiles, "-o", "{dir}/no/t.mbtiles"],
              breakInput: none, expected: ["cannot write {dir}/no/t.mbtiles: directory {dir}/no does not exist"]),
        .init(what: "--source: a directory", arguments: ["sync", "{pkg}", "--source", "{bad}"],
              breakInput: directory, expected: [aDirectory]),
        .init(what: "--source: a text file", arguments: ["sync", "{pkg}", "--source", "{bad}"],
              breakInput: notADatabase, expected: [notSQLite]),
        .init(what: "--source: a directory", arguments: ["verify", "{pkg}", "--source", "{bad}"],
              breakInput: directory, expected: ["source " + aDirectory]),
        .init(what: "a text file", arguments: ["source", "status", "{bad}"], breakInput: notADatabase, expected: [notSQLite]),
        .init(what: "a missing file", arguments: ["source", "replicas", "{bad}"], breakInput: none, expected: ["{bad}: no such file"]),
        .init(what: "a directory", arguments: ["source", "unregister", "{bad}", "r-1"], breakInput: directory,
              expected: ["{bad} is a directory, not a GeoPackage"]),
    ]

    static func dataNotADatabase(_ f: BadInputFixture) throws { try f.text("junk\n", at: f.package + "/data.gpkg") }
    static func dataDirectory(_ f: BadInputFixture) throws { try f.folder(at: f.package + "/data.gpkg") }
    static func manifestWithoutReplica(_ f: BadInputFixture) throws { try f.editManifest { $0["replica_id"] = nil } }
    static func manifestWrongType(_ f: BadInputFixture) throws {
        try f.editManifest { m in
            var layers = m["layers"] as? [[String: Any]] ?? []
            layers[0]["count"] = "many"
            m["layers"] = layers
        }
    }
    static func manifestNotJSON(_ f: BadInputFixture) throws { try f.text("{not json", at: f.package + "/manifest.json") }
    static func manifestDirectory(_ f: BadInputFixture) throws { try f.folder(at: f.package + "/manifest.json") }

    static let data = "{pkg}/data.gpkg"
    static let manifest = "{pkg}/manifest.json is not a package manifest: "

    static let packages: [BadInputCase] = [
        .init(what: "data.gpkg a text file", arguments: ["inspect", "{pkg}"], breakInput: dataNotADatabase,
              expected: ["cannot open \(data): it is not an SQLite database"]),
        .init(what: "data.gpkg a directory", arguments: ["inspect", "{pkg}"], breakInput: dataDirectory,
              expected: ["cannot open \(data): it is a directory"]),
        .init(what: "data.gpkg a text file", arguments: ["sync", "{pkg}"], breakInput: dataNotADatabase,
              expected: ["\(data) is not a GeoPackage: it is not an SQLite database"]),
        .init(what: "data.gpkg a directory", arguments: ["verify", "{pkg}"], breakInput: dataDirectory,
              expected: ["\(data) is not a GeoPackage: it is a directory"]),
        .init(what: "data.gpkg a directory", arguments: ["changes", "{pkg}"], breakInput: dataDirectory,
              expected: ["\(data) is not a GeoPackage: it is a directory"]),
        .init(what: "data.gpkg a directory", arguments: ["conflicts", "{pkg}"], breakInput: dataDirectory,
              expected: ["\(data) is not a GeoPackage: it is a directory"]),
        .init(what: "data.gpkg a text file", arguments: ["resolve", "{pkg}", "--all", "--take", "source"],
              breakInput: dataNotADatabase, expected: ["\(data) is not a GeoPackage: it is not an SQLite database"]),
        .init(what: "data.gpkg a directory", arguments: ["identify", "{pkg}", "--at", "-150,63"], breakInput: dataDirectory,
              expected: ["\(data) is not a GeoPackage: it is a directory"]),
        .init(what: "data.gpkg a text file", arguments: ["related", "{pkg}", "--layer", "parks", "--id", "1"],
              breakInput: dataNotADatabase, expected: ["\(data) is not a GeoPackage: it is not an SQLite database"]),
        .init(what: "data.gpkg a directory", arguments: ["edit", "{pkg}", "--layer", "parks", "--id", "1", "--set", "a=1"],
              breakInput: dataDirectory, expected: ["\(data) is not a GeoPackage: it is a directory"]),
        .init(what: "a manifest without replica_id", arguments: ["inspect", "{pkg}"], breakInput: manifestWithoutReplica,
              expected: [manifest + "key 'replica_id' is missing"]),
        .init(what: "a manifest without replica_id", arguments: ["sync", "{pkg}"], breakInput: manifestWithoutReplica,
              expected: [manifest + "key 'replica_id' is missing"]),
        .init(what: "a manifest with a text count", arguments: ["verify", "{pkg}"], breakInput: manifestWrongType,
              expected: [manifest + "key 'layers[0].count' must be an integer"]),
        .init(what: "a manifest with a text count", arguments: ["changes", "{pkg}"], breakInput: manifestWrongType,
              expected: [manifest + "key 'layers[0].count' must be an integer"]),
        .init(what: "a manifest that is not JSON", arguments: ["conflicts", "{pkg}"], breakInput: manifestNotJSON,
              expected: [manifest + "it is not valid JSON: expected a string key at line 1, column 2"]),
        .init(what: "manifest.json a directory", arguments: ["inspect", "{pkg}"], breakInput: manifestDirectory,
              expected: ["{pkg}/manifest.json is a directory, not a package manifest"]),
        .init(what: "--svg a directory", arguments: ["inspect", "{pkg}", "--svg", "{bad}"], breakInput: directory,
              expected: ["cannot write {bad}: it is a directory"]),
        .init(what: "--changeset in a missing directory", arguments: ["changes", "{pkg}", "--changeset", "{dir}/no/c"],
              breakInput: none, expected: ["cannot write {dir}/no/c: directory {dir}/no does not exist"]),
    ]

    static let unclosed = "POLYGON((-153 60,-150 60,-150 63,-153 63))"
    static let notClosed = "the outer ring is not closed: it starts at -153 60 and ends at -153 63"

    static func unclosedGeoJSON(_ f: BadInputFixture) throws {
        try f.text(#"{"type":"Polygon","coordinates":[[[-153,60],[-150,60],[-150,63],[-153,63]]]}"#, at: f.bad)
    }

    static let areas: [BadInputCase] = [
        .init(what: "an unclosed ring", arguments: ["estimate", "--area", unclosed, "--features", "{src}"],
              breakInput: none, expected: ["--area \(unclosed): \(notClosed)"]),
        .init(what: "an unclosed ring", arguments: ["create", "--area", unclosed, "--features", "{src}", "-o", "{dir}/o.pkg"],
              breakInput: none, expected: ["--area \(unclosed): \(notClosed)"]),
        .init(what: "an unclosed ring", arguments: ["tiles", "--area", unclosed, "--zoom", "0-3", "--from", tiles, "-o", "{dir}/t.mbtiles"],
              breakInput: none, expected: ["--area \(unclosed): \(notClosed)"]),
        .init(what: "a ring of 3 points", arguments: ["estimate", "--area", "POLYGON((-153 60,-150 60,-153 60))", "--features", "{src}"],
              breakInput: none, expected: ["the outer ring has 3 points; a ring needs at least 4"]),
        .init(what: "an unclosed GeoJSON ring", arguments: ["estimate", "--area", "@{bad}", "--features", "{src}"],
              breakInput: unclosedGeoJSON, expected: ["--area file {bad}: \(notClosed)"]),
    ]
}
