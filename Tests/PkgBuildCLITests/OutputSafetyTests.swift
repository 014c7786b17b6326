import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// `create --force` and `tiles -o` never delete what is not theirs to replace: a source, a
/// plain file, a folder, a GeoPackage, an input of the same run however its path is spelled,
/// or a package still holding unsynced edits. Each refusal names the path and changes nothing.
@Suite struct OutputSafetyTests {
    static let area = "--area=-153.5,60.8,-147.5,64.3"
    let raster = TestData.url("ne_raster_z0-5.mbtiles").path

    /// What a file or directory holds, for "nothing changed": a database's `.dump`, a file's
    /// bytes, a directory's names and their contents.
    func snapshot(_ path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "absent" }
        if isDirectory.boolValue {
            return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
                .map { "\($0): \(try snapshot(path + "/" + $0))" }.joined(separator: "\n")
        }
        let dump = try runProcess("sqlite3", [path, ".dump"])
        if dump.status == 0 && !dump.stdout.isEmpty { return dump.stdout }
        return try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()
    }

    /// Runs `arguments`, expecting exit 1 with every word of `expected` in the message, and
    /// the directory exactly as it was.
    func expectRefused(_ arguments: [String], in dir: TemporaryDirectory, _ expected: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try snapshot(dir.url.path)
        let result = CLI.run(arguments)
        #expect(result.exitCode == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        for word in expected {
            #expect(result.stderr.contains(word), "\(word) in \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(try snapshot(dir.url.path) == before, "nothing changed", sourceLocation: sourceLocation)
    }

    func create(_ source: String, _ output: String, _ extra: [String] = []) -> [String] {
        ["create", Self.area, "--features", source, "-o", output, "--no-register"] + extra
    }

    @Test func createNeverReplacesItsSourceHoweverSpelled() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.gpkg"), withDestinationPath: source)
        try FileManager.default.linkItem(atPath: source, toPath: dir.path("hard.gpkg"))
        for output in [source, dir.path("link.gpkg"), dir.path("hard.gpkg"), dir.path("./sub/../alaska_source.gpkg")] {
            try expectRefused(create(source, output, ["--force"]), in: dir, [URL(fileURLWithPath: output).lastPathComponent, "features source"])
        }
        // The directory holding the source is not a package either.
        try expectRefused(create(source, dir.url.path, ["--force"]), in: dir, [dir.url.path, "features source"])
    }

    @Test func createForceRefusesWhatIsNotAPackage() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let other = try dir.copy(testdata: "ne_parks.gpkg", as: "other.gpkg")
        try Data("notes".utf8).write(to: dir.url.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(atPath: dir.path("photos"), withIntermediateDirectories: false)
        try Data("jpeg".utf8).write(to: dir.url.appendingPathComponent("photos/1.jpg"))
        try expectRefused(create(source, other, ["--force"]), in: dir, [other, "is a file, not a package"])
        try expectRefused(create(source, dir.path("notes.txt"), ["--force"]), in: dir, ["notes.txt", "is a file"])
        try expectRefused(create(source, dir.path("photos"), ["--force"]), in: dir, ["photos", "not a pkgbuild package"])
        // Without --force the same refusals, not an invitation to pass it.
        try expectRefused(create(source, dir.path("photos")), in: dir, ["photos", "not a pkgbuild package"])
    }

    @Test func createForceReplacesOnlyAPackageOfItsOwnFiles() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("a.pkg")
        let tiles = ["--tiles", raster, "--zoom", "0-2"]
        #expect(CLI.run(create(source, output, tiles)).exitCode == 0)
        try expectRefused(create(source, output, tiles), in: dir, [output, "--force"])
        // The package's own basemap as the tile source of its replacement.
        try expectRefused(create(source, output, ["--force", "--tiles", output + "/basemap.mbtiles", "--zoom", "0-2"]),
                          in: dir, [output, "tile source"])
        try Data("field notes".utf8).write(to: URL(fileURLWithPath: output + "/notes.txt"))
        try expectRefused(create(source, output, ["--force"]), in: dir, [output, "notes.txt"])
        try FileManager.default.removeItem(atPath: output + "/notes.txt")
        let forced = CLI.run(create(source, output, ["--force", "--clip"]))
        #expect(forced.exitCode == 0, "\(forced.stderr)")
    }

    @Test func createForceKeepsAPackageWithUnsyncedEdits() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("a.pkg")
        #expect(CLI.run(["create", Self.area, "--features", source, "-o", output]).exitCode == 0)
        // A field edit made with GDAL's layer API.
        let edit = try runProcess("/usr/bin/python3", ["-c", """
            from osgeo import ogr
            ds = ogr.Open('\(output)/data.gpkg', 1)
            layer = ds.GetLayerByName('parks')
            f = layer.GetNextFeature()
            f.SetField('note', 'seen from the ridge')
            assert layer.SetFeature(f) == 0
            ds = None
            """])
        #expect(edit.status == 0, "\(edit.stderr)")
        try expectRefused(["create", Self.area, "--features", source, "-o", output, "--force"], in: dir,
                          [output, "1 local edit not yet synced"])
    }

    @Test func createRefusesAStagingNameThatIsNotItsOwn() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        try Data("mine".utf8).write(to: dir.url.appendingPathComponent("a.pkg.partial"))
        try expectRefused(create(source, dir.path("a.pkg")), in: dir, ["a.pkg.partial", "not an unfinished build"])
    }

    @Test func tilesRefusesAnExistingOutputWithoutForce() throws {
        let dir = try TemporaryDirectory()
        let output = dir.path("out.mbtiles")
        let tiles = ["tiles", "--area", "-170,50,-130,72", "--zoom", "0-2", "--from", raster, "-o", output]
        #expect(CLI.run(tiles).exitCode == 0)
        try expectRefused(tiles, in: dir, [output, "already exists", "--force"])
        let forced = CLI.run(tiles + ["--force"])
        #expect(forced.exitCode == 0, "\(forced.stderr)")
    }

    @Test func tilesForceReplacesOnlyAnMBTilesFileThatIsNotItsSource() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "ne_raster_z0-5.mbtiles", as: "source.mbtiles")
        let gpkg = try dir.copy(testdata: "ne_parks.gpkg", as: "parks.gpkg")
        try Data("notes".utf8).write(to: dir.url.appendingPathComponent("notes.txt"))
        try FileManager.default.linkItem(atPath: source, toPath: dir.path("hard.mbtiles"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.mbtiles"), withDestinationPath: source)
        func tiles(_ output: String) -> [String] {
            ["tiles", "--area", "-170,50,-130,72", "--zoom", "0-2", "--from", source, "-o", output, "--force"]
        }
        try expectRefused(tiles(gpkg), in: dir, [gpkg, "is a GeoPackage"])
        // A WAL-mode GeoPackage too, and looking at it leaves no -wal or -shm behind.
        let wal = try runProcess("sqlite3", [gpkg, "PRAGMA journal_mode = WAL"])
        #expect(wal.stdout.contains("wal"), "\(wal.stderr)")
        try expectRefused(tiles(gpkg), in: dir, [gpkg, "is a GeoPackage"])
        try expectRefused(tiles(dir.path("notes.txt")), in: dir, ["notes.txt", "not an SQLite database"])
        try expectRefused(tiles(dir.url.path), in: dir, [dir.url.path, "tile source"])
        for output in [source, dir.path("hard.mbtiles"), dir.path("link.mbtiles")] {
            try expectRefused(tiles(output), in: dir, [output, "tile source"])
        }
    }

    @Test func tilesRefusesAWorkFileThatIsNotItsOwn() throws {
        let dir = try TemporaryDirectory()
        let parks = try dir.copy(testdata: "ne_parks.gpkg", as: "out.mbtiles.partial")
        try expectRefused(["tiles", "--area", "-170,50,-130,72", "--zoom", "0-2", "--from", raster, "-o", dir.path("out.mbtiles")],
                          in: dir, [parks, "not an unfinished copy"])
    }
}
