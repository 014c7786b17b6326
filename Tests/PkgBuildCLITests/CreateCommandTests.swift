import Foundation
import Testing
import PkgBuildCLI
import TestSupport

/// `create`, `estimate` and `inspect` driven in-process on copies of the demo source.
@Suite struct CreateCommandTests {
    static let area = "--area=-153.5,60.8,-147.5,64.3"
    static let validator = GDALValidator.script

    func replicaCount(_ source: String) throws -> Int {
        let r = try runProcess("sqlite3", [source, "SELECT count(*) FROM pkgbuild_replicas"])
        return Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Nothing under the output's name or beside it, and no replica registered.
    func expectNothingWritten(_ dir: TemporaryDirectory, source: String?, _ comment: Comment? = nil) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".pkg") }
        #expect(names.isEmpty, comment)
        if let source { #expect(try replicaCount(source) == 0, comment) }
    }

    @Test func buildsInspectsAndRegistersTheDemoPackage() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("denali.pkg")
        let create = CLI.run(["create", Self.area, "--features", source, "--tiles", TestData.url("ne_raster_z0-5.mbtiles").path,
                              "--zoom", "0-5", "-o", output, "--json"])
        #expect(create.exitCode == 0, "\(create.stderr)")
        #expect(create.stdout.contains("\"replica_id\""))
        let inspect = CLI.run(["inspect", output, "--json"])
        #expect(inspect.exitCode == 0, "\(inspect.stderr)")
        for expected in ["\"name\": \"parks\"", "\"count\": 2", "\"name\": \"airports\"", "\"zoom\": 5"] {
            #expect(inspect.stdout.contains(expected), "\(expected) in \(inspect.stdout)")
        }
        let status = try runProcess("sqlite3", [source, "SELECT state FROM pkgbuild_replicas"])
        #expect(status.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "active")
        let related = try runProcess("sqlite3", [output + "/data.gpkg", "SELECT group_concat(unit_code) FROM (SELECT unit_code FROM park_visitors ORDER BY 1)"])
        #expect(related.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "DENA,LACL")
        let validation = try runProcess("/usr/bin/python3", [Self.validator, output + "/data.gpkg"])
        #expect(validation.status == 0 && validation.stdout.isEmpty && validation.stderr.isEmpty, "\(validation.stdout)\(validation.stderr)")
        #expect(try runProcess("ogrinfo", ["-ro", "-so", output + "/data.gpkg"]).status == 0)
        let gdal = try runProcess("gdalinfo", [output + "/basemap.mbtiles"])
        #expect(gdal.status == 0, "\(gdal.stderr)")
        let svg = dir.path("p.svg")
        #expect(CLI.run(["inspect", output, "--svg", svg]).exitCode == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<path"))
        let geojson = CLI.run(["inspect", output, "--geojson"])
        #expect(geojson.stdout.contains("\"tile coverage\""))
    }

    @Test func whereFiltersTheAreasRowsAndIsRecorded() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("f.pkg")
        let r = CLI.run(["create", Self.area, "--features", source, "--where", "parks:unit_code = 'DENA'", "-o", output])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let parks = try runProcess("sqlite3", [output + "/data.gpkg", "SELECT group_concat(unit_code) FROM parks"])
        #expect(parks.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "DENA")
        let cut = try runProcess("sqlite3", [output + "/data.gpkg", "SELECT filter FROM pkgbuild_layers WHERE table_name = 'parks'"])
        #expect(cut.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "unit_code = 'DENA'")
    }

    @Test func estimateWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        let r = CLI.run(["estimate", Self.area, "--features", source, "--tiles", TestData.url("ne_raster_z0-5.mbtiles").path,
                         "--zoom", "0-5"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("total: 7 tiles"), "\(r.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
        try expectNothingWritten(dir, source: source)
    }

    /// `create` refuses a basemap of more than `--max-tiles` tiles (100,000 unless told
    /// otherwise) before any work, as `tiles` does, with the count and the zooms that fit;
    /// `estimate` prints the same figures and succeeds, as `tiles --dry-run` does. The whole
    /// world: 4^z tiles at zoom z.
    @Test(arguments: [
        (["create"], ["--zoom", "0-5", "--max-tiles", "100"], "1365 tiles at zoom 0-5, more than --max-tiles 100; zoom 0-3 fits (85 tiles)"),
        (["estimate"], ["--zoom", "0-5", "--max-tiles", "100"], "more than --max-tiles 100: a real run would be refused; zoom 0-3 fits (85 tiles)"),
        (["create"], ["--zoom", "0-9"], "349525 tiles at zoom 0-9, more than --max-tiles 100000; zoom 0-8 fits (87381 tiles)"),
        (["estimate"], ["--zoom", "0-9"], "more than --max-tiles 100000: a real run would be refused; zoom 0-8 fits (87381 tiles)"),
        (["estimate"], ["--zoom", "3-4", "--max-tiles", "10"], "more than --max-tiles 10: a real run would be refused; even zoom 3 alone does not fit"),
    ])
    func moreBasemapTilesThanMaxTilesIsRefusedBeforeAnyWork(command: [String], options: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        var argv = command + ["--area=-180,-85,180,85", "--features", source, "--tiles", TestData.url("ne_raster_z0-5.mbtiles").path] + options
        if command == ["create"] { argv += ["-o", dir.path("world.pkg")] }
        let r = CLI.run(argv)
        #expect(r.exitCode == (command == ["create"] ? 1 : 0), "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        try expectNothingWritten(dir, source: source, "\(argv)")
    }

    @Test func maxTilesNeedsTiles() throws {
        let r = CLI.run(["estimate", Self.area, "--features", "x.gpkg", "--max-tiles", "5"])
        #expect(r.exitCode == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--max-tiles needs --tiles"), "\(r.stderr)")
    }

    @Test(arguments: [
        (["--area=1,1,1,1"], "must be less than maxy"),
        (["--area=1,2,1,3"], "no width"),
        (["--area", "POLYGON((0 0, 1 1"], "--area"),
        (["--area", "LINESTRING(0 0, 1 1)"], "polygon"),
        ([area, "--crs", "EPSG:999999"], "unknown CRS"),
        ([area, "--area-crs", "EPSG:0"], "unknown CRS"),
        ([area, "--where", "parks:1; DROP TABLE parks"], "parks:1; DROP TABLE parks"),
        ([area, "--where", "parks:fid IN (SELECT fid FROM airports)"], "airports"),
        ([area, "--where", "parks:load_extension('x') IS NULL"], "load_extension"),
        ([area, "--layer", "nosuch"], "nosuch"),
    ])
    func refusesBadInputWritingNothing(arguments: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let r = CLI.run(["create"] + arguments + ["--features", source, "-o", dir.path("a.pkg")])
        #expect(r.exitCode == 1 || r.exitCode == 64, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        try expectNothingWritten(dir, source: source, "\(arguments)")
    }

    @Test func refusesAMissingOrNonGeoPackageSource() throws {
        let dir = try TemporaryDirectory()
        let missing = CLI.run(["create", Self.area, "--features", dir.path("none.gpkg"), "-o", dir.path("a.pkg")])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr.contains("does not exist"))
        let text = dir.path("text.gpkg")
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: text))
        let notGPKG = CLI.run(["create", Self.area, "--features", text, "-o", dir.path("a.pkg"), "--no-register"])
        #expect(notGPKG.exitCode == 1)
        #expect(notGPKG.stderr.contains(text), "\(notGPKG.stderr)")
        try expectNothingWritten(dir, source: nil)
    }

    @Test func corruptGeometryFailsNamingLayerAndFidOrIsSkipped() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        // sqlite3 has no ST_ functions, and every trigger on the table is compiled with the
        // UPDATE; drop the R-tree ones (as a broken writer would leave things) and break the
        // blob of Denali (fid 60): a valid header followed by bytes that are not WKB.
        let drop = try runProcess("sqlite3", [source, "SELECT 'DROP TRIGGER \"' || name || '\";' FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'parks' AND sql LIKE '%ST_%'"])
        let corrupt = try runProcess("sqlite3", [source, drop.stdout + "UPDATE parks SET geom = X'4750000100000000FFFF' WHERE fid = 60;"])
        #expect(corrupt.status == 0, "\(corrupt.stderr)")
        let fail = CLI.run(["create", Self.area, "--features", source, "-o", dir.path("a.pkg")])
        #expect(fail.exitCode == 1)
        #expect(fail.stderr.contains("layer parks, fid 60"), "\(fail.stderr)")
        try expectNothingWritten(dir, source: source)
        let skip = CLI.run(["create", Self.area, "--features", source, "-o", dir.path("a.pkg"), "--skip-invalid"])
        #expect(skip.exitCode == 0, "\(skip.stderr)")
        #expect(skip.stderr.contains("skipped 1"), "\(skip.stderr)")
    }

    @Test func existingOutputNeedsForce() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("a.pkg")
        #expect(CLI.run(["create", Self.area, "--features", source, "-o", output]).exitCode == 0)
        let again = CLI.run(["create", Self.area, "--features", source, "-o", output])
        #expect(again.exitCode == 1)
        #expect(again.stderr.contains("--force"))
        #expect(try replicaCount(source) == 1)
        let forced = CLI.run(["create", Self.area, "--features", source, "-o", output, "--force", "--clip"])
        #expect(forced.exitCode == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: output + "/manifest.json", encoding: .utf8).contains("\"clipped\" : true"))
    }

    /// Root writes read-only files anyway, so this only means something for other users.
    @Test(.enabled(if: getuid() != 0)) func readOnlySourceNeedsNoRegister() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: source)
        let refused = CLI.run(["create", Self.area, "--features", source, "-o", dir.path("a.pkg")])
        #expect(refused.exitCode == 1)
        #expect(refused.stderr.contains("--no-register"), "\(refused.stderr)")
        try expectNothingWritten(dir, source: source)
        let unregistered = CLI.run(["create", Self.area, "--features", source, "-o", dir.path("a.pkg"), "--no-register"])
        #expect(unregistered.exitCode == 0, "\(unregistered.stderr)")
    }

    @Test func areaOutsideTheDataGivesAnEmptyPackageAndAWarning() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("empty.pkg")
        let r = CLI.run(["create", "--area=10,10,11,11", "--features", source, "-o", output])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Warning"), "\(r.stderr)")
        let validation = try runProcess("/usr/bin/python3", [Self.validator, output + "/data.gpkg"])
        #expect(validation.status == 0 && validation.stdout.isEmpty && validation.stderr.isEmpty, "\(validation.stdout)\(validation.stderr)")
    }
}
