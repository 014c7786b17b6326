import Foundation
import Geodatabase
import PkgBuildCLI
import SQLite
import TestSupport
import Testing

/// GDAL, the oracle, sees enabled sources and packages as ordinary GeoPackages: its writes
/// (layer API, `ogrinfo -sql`, `ogr2ogr -append`) raise no warning about our extension, and
/// its layer list shows the user's layers only.
@Suite struct OrdinaryGeoPackageTests {
    /// Writes with GDAL's layer API: one attribute update and one insert (stderr carries GDAL's warnings).
    static let layerAPIWrite = """
        import sys
        from osgeo import gdal, ogr
        gdal.UseExceptions()
        ds = gdal.OpenEx(sys.argv[1], gdal.OF_VECTOR | gdal.OF_UPDATE)
        parks = ds.GetLayerByName('parks')
        f = parks.GetNextFeature()
        f.SetField('note', 'edited by GDAL')
        parks.SetFeature(f)
        airports = ds.GetLayerByName('airports')
        g = ogr.Feature(airports.GetLayerDefn())
        g.SetField('name', 'GDAL field strip')
        g.SetGeometry(ogr.CreateGeometryFromWkt('POINT (-150 61)'))
        airports.CreateFeature(g)
        ds = None
        """

    /// Runs GDAL's three ways of writing on `path` and returns what each printed on stderr.
    static func gdalWrites(_ path: String, in directory: TemporaryDirectory) throws -> [String: ProcessResult] {
        let script = directory.path("write.py")
        try layerAPIWrite.write(toFile: script, atomically: true, encoding: .utf8)
        let newAirport = directory.path("new_airport.geojson")
        try """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "appended strip"},
             "geometry": {"type": "Point", "coordinates": [-151, 62]}}]}
            """.write(toFile: newAirport, atomically: true, encoding: .utf8)
        return [
            "layer API": try runProcess("/usr/bin/python3", [script, path]),
            "ogrinfo -sql": try runProcess("ogrinfo", ["-q", path, "-sql", "SELECT name FROM airports LIMIT 1"]),
            "ogrinfo -sql UPDATE": try runProcess("ogrinfo", ["-q", path, "-sql", "UPDATE parks SET note = 'via sql' WHERE fid = 1"]),
            "ogr2ogr -append": try runProcess("ogr2ogr", ["-append", "-update", path, newAirport, "-nln", "airports"]),
        ]
    }

    static func expectSilent(_ results: [String: ProcessResult], _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (name, result) in results.sorted(by: { $0.key < $1.key }) {
            #expect(result.status == 0, "\(name) on \(path): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(!result.stderr.contains("pkgbuild_sync") && !result.stderr.contains("Warning"),
                    "\(name) on \(path) warned: \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test func gdalWritesToSourceAndPackageRaiseNoWarning() throws {
        // The demo source was enabled by an earlier version: enabling it again migrates it.
        let fixture = try SyncFixture()
        let package = try fixture.makePackage()
        let data = package.appendingPathComponent("data.gpkg").path
        let sourceGeneration = try fixture.openSource().connection.scalar("SELECT max(generation) FROM pkgbuild_changes")
        for path in [fixture.sourcePath, data] {
            Self.expectSilent(try Self.gdalWrites(path, in: fixture.directory), path)
            #expect(try GDALValidator.findings(path) == "", "validate_gpkg.py \(path)")
            let stray = try GeoPackage(path: path).connection.query("""
                SELECT table_name FROM gpkg_extensions WHERE extension_name = 'pkgbuild_sync' AND table_name NOT GLOB 'pkgbuild_*'
                """)
            #expect(stray.isEmpty, "\(path): pkgbuild_sync on user tables \(stray)")
        }
        // GDAL's writes were real and our triggers recorded them.
        let edits = try fixture.openPackage(package).connection.query("SELECT table_name, operation FROM pkgbuild_edits ORDER BY position")
        let kinds = edits.map { "\($0[0].stringValue ?? "") \($0[1].stringValue ?? "")" }
        #expect(kinds.filter { $0 == "airports insert" }.count == 2 && kinds.contains("parks update"), "\(kinds)")
        let after = try fixture.openSource().connection.scalar("SELECT max(generation) FROM pkgbuild_changes")
        #expect((after?.int64Value ?? 0) >= (sourceGeneration?.int64Value ?? 0) + 3)
    }

    /// Files written before: our extension on every tracked user table. `source enable` and
    /// the next sync take the rows off.
    @Test func sourceEnableAndSyncMigrateEarlierRegistrations() throws {
        let fixture = try SyncFixture()
        let package = try fixture.makePackage()
        let data = package.appendingPathComponent("data.gpkg").path
        let earlier = """
            DELETE FROM gpkg_extensions WHERE extension_name = 'pkgbuild_sync';
            DELETE FROM gpkg_extensions WHERE extension_name = 'gdal_aspatial';
            INSERT INTO gpkg_extensions VALUES ('parks', 'globalid', 'pkgbuild_sync', 'pkgbuild sync', 'write-only');
            INSERT INTO gpkg_extensions VALUES ('airports', 'globalid', 'pkgbuild_sync', 'pkgbuild sync', 'write-only');
            """
        for path in [fixture.sourcePath, data] {
            #expect(try runProcess("sqlite3", [path, earlier]).status == 0)
        }
        let before = try Self.gdalWrites(data, in: fixture.directory)
        #expect(before.values.contains { $0.stderr.contains("pkgbuild_sync") }, "the earlier registration makes GDAL warn")

        let enabled = CLI.run(["source", "enable", fixture.sourcePath])
        #expect(enabled.exitCode == 0, "\(enabled.stderr)")
        Self.expectSilent(try Self.gdalWrites(fixture.sourcePath, in: fixture.directory), fixture.sourcePath)

        let synced = CLI.run(["sync", package.path])
        #expect(synced.exitCode == 0, "\(synced.stderr)")
        Self.expectSilent(try Self.gdalWrites(data, in: fixture.directory), data)
        for path in [fixture.sourcePath, data] {
            #expect(try GDALValidator.findings(path) == "", "validate_gpkg.py \(path)")
            let own = try GeoPackage(path: path).connection.query("""
                SELECT count(*) FROM gpkg_extensions WHERE extension_name = 'pkgbuild_sync' AND table_name GLOB 'pkgbuild_*'
                """)
            #expect((own.first?.first?.int64Value ?? 0) >= 5, "\(path): our tables registered")
        }
    }
}

/// GDAL's layer list (`ogrinfo -q`, its default `LIST_ALL_TABLES=AUTO`) shows the user's layers,
/// never our `pkgbuild_*` tables, in packages and sources with and without attribute tables.
@Suite struct LayerListTests {
    static func layers(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let result = try runProcess("ogrinfo", ["-ro", "-q", path])
        #expect(result.status == 0, "ogrinfo \(path): \(result.stderr)", sourceLocation: sourceLocation)
        // "1: parks (Multi Polygon)"
        return result.stdout.split(separator: "\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return String(line[line.index(colon, offsetBy: 2)...].split(separator: " ").first ?? "")
        }.sorted()
    }

    /// The demo source without its attribute table, enabled.
    static func featuresOnlySource(_ fixture: SyncFixture) throws -> String {
        let path = fixture.directory.path("features-only.gpkg")
        for layer in ["parks", "airports"] {
            let made = try runProcess("ogr2ogr", ["-f", "GPKG"] + (layer == "parks" ? [] : ["-update"])
                                      + [path, TestData.url("demo/alaska_source.gpkg").path, layer])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let enabled = CLI.run(["source", "enable", path])
        #expect(enabled.exitCode == 0, "\(enabled.stderr)")
        return path
    }

    @Test func packagesListOnlyTheirLayers() throws {
        let fixture = try SyncFixture()
        let withAttributes = try fixture.makePackage("all.pkg")
        let featuresOnly = try fixture.makePackage("features.pkg", arguments: ["--layer", "parks", "--layer", "airports", "--no-related"])
        #expect(try Self.layers(withAttributes.appendingPathComponent("data.gpkg").path) == ["airports", "park_visitors", "parks"])
        #expect(try Self.layers(featuresOnly.appendingPathComponent("data.gpkg").path) == ["airports", "parks"])
        // From a features-only source too, and still after a sync wrote its own tables.
        let source = try Self.featuresOnlySource(fixture)
        let package = fixture.directory.path("from-features-only.pkg")
        let created = CLI.run(["create", "--area=-160,57,-140,66", "--features", source, "--output", package])
        #expect(created.exitCode == 0, "\(created.stderr)")
        let synced = CLI.run(["sync", package])
        #expect(synced.exitCode == 0, "\(synced.stderr)")
        #expect(try Self.layers(package + "/data.gpkg") == ["airports", "parks"])
        #expect(try GDALValidator.findings(package + "/data.gpkg") == "")
    }

    @Test func sourcesListOnlyTheirLayers() throws {
        let fixture = try SyncFixture()
        #expect(try Self.layers(fixture.sourcePath) == ["airports", "park_visitors", "parks"])
        let source = try Self.featuresOnlySource(fixture)
        #expect(try Self.layers(source) == ["airports", "parks"])
        #expect(try GDALValidator.findings(source) == "")
    }

    /// A table the user made without registering it is a layer GDAL shows today: enabling must
    /// not hide it (our tables then stay listed too, the lesser harm).
    @Test func unregisteredUserTablesStayVisible() throws {
        let fixture = try SyncFixture()
        let path = fixture.directory.path("with-notes.gpkg")
        #expect(try runProcess("ogr2ogr", ["-f", "GPKG", path, TestData.url("demo/alaska_source.gpkg").path, "parks"]).status == 0)
        #expect(try runProcess("sqlite3", [path, "CREATE TABLE field_notes (id INTEGER PRIMARY KEY, note TEXT)"]).status == 0)
        let enabled = CLI.run(["source", "enable", path])
        #expect(enabled.exitCode == 0, "\(enabled.stderr)")
        let listed = try Self.layers(path)
        #expect(listed.contains("field_notes") && listed.contains("parks"), "\(listed)")
        let aspatial = try GeoPackage(path: path).connection.scalar("SELECT count(*) FROM gpkg_extensions WHERE extension_name = 'gdal_aspatial'")
        #expect(aspatial?.int64Value == 0)
    }
}
