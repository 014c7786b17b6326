import Foundation
import Geodatabase
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Edits made with GDAL's Python layer API and SQL, optionally with the pkgbuild change-log
/// triggers of the table dropped around them (a client that bypasses the change log), then
/// recreated as they were. Arguments: FILE TABLE GLOBALID bypass|tracked ACTION VALUE, where
/// ACTION is `geometry` (VALUE a WKT), `delete`, or `sql` (VALUE an SQL statement).
private let gdalEdit = """
    import sys
    from osgeo import ogr
    path, table, globalid, mode, action, value = sys.argv[1:7]
    ds = ogr.Open(path, 1)
    lyr = ds.ExecuteSQL("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '%s' AND name LIKE 'pkgbuild%%'" % table)
    triggers = [(f.GetField(0), f.GetField(1)) for f in lyr]
    ds.ReleaseResultSet(lyr)
    if mode == 'bypass':
        for name, _ in triggers:
            ds.ExecuteSQL('DROP TRIGGER "%s"' % name)
    if action == 'sql':
        ds.ExecuteSQL(value)
    else:
        layer = ds.GetLayerByName(table)
        layer.SetAttributeFilter("globalid = '%s'" % globalid)
        feature = layer.GetNextFeature()
        if action == 'geometry':
            feature.SetGeometry(ogr.CreateGeometryFromWkt(value))
            layer.SetFeature(feature)
        else:
            layer.DeleteFeature(feature.GetFID())
    if mode == 'bypass':
        for _, sql in triggers:
            ds.ExecuteSQL(sql)
    ds = None
    """

/// Adds two 3-D layers to the fixture's source with GDAL: `wells` (POINT Z) and `trails`
/// (LINESTRING Z), inside the default area.
private let gdalAddZLayers = """
    import sys
    from osgeo import ogr, osr
    ds = ogr.Open(sys.argv[1], 1)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    for name, kind, wkts in [('wells', ogr.wkbPoint25D, ['POINT Z (-150 61 100)', 'POINT Z (-148 62 40)']),
                             ('trails', ogr.wkbLineString25D, ['LINESTRING Z (-150 60 100, -149 61 120, -148 61.5 140)'])]:
        layer = ds.CreateLayer(name, srs, kind, ['GEOMETRY_NAME=geom', 'FID=fid'])
        layer.CreateField(ogr.FieldDefn('name', ogr.OFTString))
        for i, wkt in enumerate(wkts):
            f = ogr.Feature(layer.GetLayerDefn())
            f.SetField('name', '%s %d' % (name, i))
            f.SetGeometry(ogr.CreateGeometryFromWkt(wkt))
            layer.CreateFeature(f)
    ds = None
    """

@Suite struct VerifyTests {
    /// Runs `pkgbuild verify` in-process against the fixture's source.
    private func verify(_ fixture: SyncFixture, _ url: URL, json: Bool = true) -> CLIResult {
        CLI.run(["verify", url.path, "--source", fixture.sourcePath] + (json ? ["--json"] : []))
    }

    /// The entries of one status of `verify --json`.
    private func entries(_ result: CLIResult, _ status: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        return try #require(object[status] as? [[String: Any]], "no \(status) in \(result.stdout)")
    }

    private func edit(_ path: String, _ table: String, _ globalID: String, bypass: Bool, _ action: String, _ value: String = "") throws {
        let r = try runProcess("/usr/bin/python3", ["-c", gdalEdit, path, table, globalID, bypass ? "bypass" : "tracked", action, value])
        try #require(r.status == 0, "GDAL edit of \(path) failed: \(r.stderr)")
    }

    private func globalID(_ connection: Connection, _ sql: String) throws -> String {
        try #require(try connection.scalar(sql)?.stringValue, "no row for \(sql)")
    }

    private func dump(_ path: String) throws -> String {
        let r = try runProcess("sqlite3", [path, ".dump"])
        try #require(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    private func data(_ url: URL) -> String { url.appendingPathComponent("data.gpkg").path }

    @Test(arguments: [[String](), ["--clip"], ["--crs", "EPSG:3338"], ["--where", "parks:unit_name LIKE 'D%'"],
                      ["--schema-only", "park_visitors"]])
    func freshPackageVerifiesCleanAndNothingIsWritten(arguments: [String]) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: arguments)
        let before = (try dump(fixture.sourcePath), try dump(data(url)))
        let result = verify(fixture, url, json: false)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("0 pending, 0 behind, 0 divergent"), "\(result.stdout)")
        #expect(result.stdout.contains("within 1e-06"), "the tolerance is stated: \(result.stdout)")
        #expect(try dump(fixture.sourcePath) == before.0)
        #expect(try dump(data(url)) == before.1)
    }

    @Test func localEditIsPendingAndOfficeEditIsBehind() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let park = try globalID(package, "SELECT globalid FROM parks WHERE unit_code = 'DENA'")
        let airport = try globalID(package, "SELECT globalid FROM airports WHERE iata_code = 'ANC'")
        // Ordinary clients, with the change-log triggers in place.
        let local = try runProcess("/usr/bin/ogrinfo", ["-q", data(url), "-sql", "UPDATE parks SET unit_name = 'Denali (field)' WHERE unit_code = 'DENA'"])
        try #require(local.status == 0, "\(local.stderr)")
        try edit(fixture.sourcePath, "airports", airport, bypass: false, "geometry", "POINT (-149.9 61.2)")

        let result = verify(fixture, url)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let pending = try entries(result, "pending"), behind = try entries(result, "behind")
        #expect(pending.count == 1 && pending.first?["table"] as? String == "parks" && pending.first?["globalid"] as? String == park)
        #expect(pending.first?["columns"] as? [String] == ["unit_name"])
        #expect(behind.count == 1 && behind.first?["table"] as? String == "airports" && behind.first?["globalid"] as? String == airport)
        #expect(behind.first?["columns"] as? [String] == ["geom"])
        #expect(try entries(result, "divergent").isEmpty)

        // After a sync both are settled.
        _ = try fixture.sync(url)
        let after = verify(fixture, url)
        let pendingAfter = try entries(after, "pending"), behindAfter = try entries(after, "behind")
        #expect(after.exitCode == 0 && pendingAfter.isEmpty && behindAfter.isEmpty, "\(after.stdout)")
    }

    @Test(arguments: ["source", "package"])
    func editBypassingTheChangeLogIsDivergent(side: String) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let airport = try globalID(try fixture.openSource().connection, "SELECT globalid FROM airports WHERE iata_code = 'FAI'")
        let path = side == "source" ? fixture.sourcePath : data(url)
        try edit(path, "airports", airport, bypass: true, "sql", "UPDATE airports SET type = 'closed' WHERE globalid = '\(airport)'")
        let changes = try #require(try GeoPackage(path: path).connection.scalar(
            side == "source" ? "SELECT count(*) FROM pkgbuild_changes WHERE globalid = '\(airport)'"
                             : "SELECT count(*) FROM pkgbuild_edits WHERE globalid = '\(airport)'"))
        #expect(changes == 0, "the edit went past the change log")

        let result = verify(fixture, url)
        #expect(result.exitCode == 3, "\(result.stdout)\(result.stderr)")
        let divergent = try entries(result, "divergent")
        #expect(divergent.count == 1 && divergent.first?["globalid"] as? String == airport)
        #expect(divergent.first?["columns"] as? [String] == ["type"])
        let text = verify(fixture, url, json: false)
        #expect(text.exitCode == 3 && text.stdout.contains("divergent") && text.stdout.contains(airport), "\(text.stdout)")
    }

    @Test func lostDetailIsDivergent() throws {
        let fixture = try SyncFixture()
        let added = try runProcess("/usr/bin/python3", ["-c", gdalAddZLayers, fixture.sourcePath])
        try #require(added.status == 0, "\(added.stderr)")
        try SourceGeodatabase.enable(path: fixture.sourcePath)
        let url = try fixture.makePackage()
        let clean = verify(fixture, url)
        try #require(clean.exitCode == 0, "a fresh package of 3-D layers: \(clean.stdout)\(clean.stderr)")
        let source = try fixture.openSource().connection
        let well = try globalID(source, "SELECT globalid FROM wells WHERE name = 'wells 0'")
        let trail = try globalID(source, "SELECT globalid FROM trails")
        let airport = try globalID(source, "SELECT globalid FROM airports WHERE iata_code = 'ANC'")
        let park = try globalID(source, "SELECT globalid FROM parks WHERE unit_code = 'DENA'")

        // A Z change in the package, a reversed line at the source, Latin-1 text at the source
        // whose package copy holds U+FFFD, a row deleted in the package: none recorded.
        try edit(data(url), "wells", well, bypass: true, "geometry", "POINT Z (-150 61 250)")
        try edit(fixture.sourcePath, "trails", trail, bypass: true, "geometry", "LINESTRING Z (-148 61.5 140, -149 61 120, -150 60 100)")
        try edit(fixture.sourcePath, "airports", airport, bypass: true, "sql",
                 "UPDATE airports SET name = CAST(X'446FF161' AS TEXT) WHERE globalid = '\(airport)'")
        try edit(data(url), "airports", airport, bypass: true, "sql",
                 "UPDATE airports SET name = CAST(X'446FEFBFBD61' AS TEXT) WHERE globalid = '\(airport)'")
        try edit(data(url), "parks", park, bypass: true, "delete")

        let result = verify(fixture, url)
        #expect(result.exitCode == 3, "\(result.stdout)\(result.stderr)")
        let divergent = try entries(result, "divergent")
        func columns(_ id: String) -> [String]? { divergent.first { $0["globalid"] as? String == id }?["columns"] as? [String] }
        #expect(columns(well) == ["geom"], "a Z change: \(divergent)")
        #expect(columns(trail) == ["geom"], "a reversed line: \(divergent)")
        #expect(columns(airport) == ["name"], "replaced text bytes: \(divergent)")
        #expect(columns(park) != nil, "a row deleted past the change log: \(divergent)")
        // The deleted park's visitor counts stay in the package without the row they belong to.
        let orphans = divergent.filter { $0["table"] as? String == "park_visitors" }
        #expect(orphans.count == 1 && (orphans.first?["reason"] as? String)?.contains("does not belong") == true, "\(orphans)")
        #expect(divergent.count == 5, "\(divergent)")
        #expect(try entries(result, "pending").isEmpty)
        #expect(try entries(result, "behind").isEmpty)
    }

    @Test func rowsThatShouldBeInThePackageOrNotAreDivergent() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let source = try fixture.openSource().connection
        // A row of the area missing from the package, and one the package holds though its
        // source row left the area, both past the change logs.
        let inside = try globalID(source, "SELECT globalid FROM airports WHERE iata_code = 'ANC'")
        let leaving = try globalID(source, "SELECT globalid FROM airports WHERE iata_code = 'FAI'")
        try edit(data(url), "airports", inside, bypass: true, "delete")
        try edit(fixture.sourcePath, "airports", leaving, bypass: true, "geometry", "POINT (-120 40)")
        let result = verify(fixture, url)
        #expect(result.exitCode == 3, "\(result.stdout)\(result.stderr)")
        let divergent = try entries(result, "divergent")
        #expect(Set(divergent.compactMap { $0["globalid"] as? String }) == [inside, leaving], "\(divergent)")
        #expect((divergent.first { $0["globalid"] as? String == leaving }?["reason"] as? String)?.contains("does not belong") == true)

        // A delete at the source that no log recorded: the package keeps a row the source lost.
        let deleted = try globalID(source, "SELECT globalid FROM airports WHERE iata_code = 'ADQ'")
        try edit(fixture.sourcePath, "airports", deleted, bypass: true, "delete")
        let lost = try entries(verify(fixture, url), "divergent")
        #expect((lost.first { $0["globalid"] as? String == deleted }?["reason"] as? String)?.contains("the source does not") == true, "\(lost)")

        // The same move recorded by the office is behind.
        try edit(fixture.sourcePath, "airports", leaving, bypass: false, "geometry", "POINT (-121 40)")
        let behind = try entries(verify(fixture, url), "behind")
        #expect(behind.contains { $0["globalid"] as? String == leaving }, "\(behind)")
    }

    @Test func reprojectedLayersCompareWithinTheStatedTolerance() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--crs", "EPSG:3338"])
        let package = try fixture.openPackage(url).connection
        let anc = try storedPoint(package, "SELECT geom FROM airports WHERE iata_code = 'ANC'")
        let expected = try SyncOracles.point("albers_of_anc")
        #expect(abs(anc.x - expected.x) < 1e-6 && abs(anc.y - expected.y) < 1e-6, "the package holds what cs2cs gives")
        let airport = try globalID(package, "SELECT globalid FROM airports WHERE iata_code = 'ANC'")
        // Well within the tolerance (1e-6 m): the same point.
        try edit(data(url), "airports", airport, bypass: true, "geometry", "POINT (\(anc.x + 2e-7) \(anc.y))")
        #expect(verify(fixture, url).exitCode == 0)
        // A centimetre is an edit, and no change log has it.
        try edit(data(url), "airports", airport, bypass: true, "geometry", "POINT (\(anc.x + 0.01) \(anc.y))")
        let result = verify(fixture, url)
        #expect(result.exitCode == 3, "\(result.stdout)")
        #expect(try entries(result, "divergent").map { $0["columns"] as? [String] } == [["geom"]])
    }

    @Test func clippedLayersCompareAttributesAndTheClippedGeometry() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--clip"])
        let source = try fixture.openSource().connection
        // Denali lies across the area's edge, so the package holds a cut of it.
        let park = try globalID(source, "SELECT globalid FROM parks WHERE unit_code = 'DENA'")
        let other = try globalID(source, "SELECT globalid FROM parks WHERE unit_code = 'KATM'")
        try edit(fixture.sourcePath, "parks", park, bypass: true, "sql", "UPDATE parks SET unit_name = 'Denali' WHERE globalid = '\(park)'")
        try edit(fixture.sourcePath, "parks", other, bypass: true, "geometry", "MULTIPOLYGON (((-150 60,-149 60,-149 61,-150 61,-150 60)))")
        let result = verify(fixture, url)
        #expect(result.exitCode == 3, "\(result.stdout)")
        let divergent = try entries(result, "divergent")
        #expect(divergent.first { $0["globalid"] as? String == park }?["columns"] as? [String] == ["unit_name"], "\(divergent)")
        #expect(divergent.first { $0["globalid"] as? String == other }?["columns"] as? [String] == ["geom"], "\(divergent)")
        #expect(divergent.count == 2, "\(divergent)")
    }

    /// Verify's verdict against the files themselves: after a row is edited offline out of
    /// its layer's filter and synced, either the row left the package and verify finds
    /// nothing, or it stayed and verify calls it divergent; never a stale row passed as clean.
    @Test func aRowEditedOutOfItsFilterEitherLeavesOrIsDivergent() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--where", "airports:type = 'major'"])
        let airport = try globalID(try fixture.openPackage(url).connection, "SELECT globalid FROM airports WHERE iata_code = 'ANC'")
        let local = try runProcess("/usr/bin/ogrinfo", ["-q", data(url), "-sql", "UPDATE airports SET type = 'closed' WHERE iata_code = 'ANC'"])
        try #require(local.status == 0, "\(local.stderr)")
        let pending = try entries(verify(fixture, url), "pending")
        #expect(pending.map { $0["globalid"] as? String } == [airport], "before the sync the edit is pending: \(pending)")

        _ = try fixture.sync(url)
        let stayed = try fixture.openPackage(url).connection.scalar("SELECT count(*) FROM airports WHERE globalid = '\(airport)'") == 1
        let result = verify(fixture, url)
        let divergent = try entries(result, "divergent")
        if stayed {
            #expect(result.exitCode == 3 && divergent.map { $0["globalid"] as? String } == [airport], "\(result.stdout)")
        } else {
            #expect(result.exitCode == 0 && divergent.isEmpty, "\(result.stdout)")
        }
    }

    @Test func jsonShapeIsStable() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let result = verify(fixture, url)
        #expect(result.exitCode == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["package", "source", "tolerance", "pending", "behind", "divergent", "summary"])
        #expect(object["package"] as? String == url.path)
        #expect(object["source"] as? String == fixture.sourcePath)
        // Without --source, the source the package names.
        let named = CLI.run(["verify", url.path])
        #expect(named.exitCode == 0 && named.stdout.contains("Source:  \(fixture.sourcePath)"), "\(named.stdout)\(named.stderr)")
        #expect(object["summary"] as? [String: Int] == ["pending": 0, "behind": 0, "divergent": 0])
        let keys = ["table", "globalid", "columns", "reason"]
        try edit(data(url), "airports", try globalID(try fixture.openPackage(url).connection, "SELECT globalid FROM airports LIMIT 1"),
                 bypass: true, "sql", "UPDATE airports SET type = 'x' WHERE iata_code = 'ANC'")
        let divergent = try entries(verify(fixture, url), "divergent")
        #expect(divergent.count == 1 && divergent.allSatisfy { Set($0.keys) == Set(keys) })
    }

    @Test func badInputFailsClearlyAndChangesNothing() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let before = (try dump(fixture.sourcePath), try dump(data(url)))
        let missing = CLI.run(["verify", fixture.directory.path("nowhere.pkg"), "--source", fixture.sourcePath])
        #expect(missing.exitCode == 1 && missing.stderr.contains("nowhere.pkg") && missing.stderr.contains("does not exist"), "\(missing.stderr)")
        // A GeoPackage that is not a package: the source itself.
        let notPackage = CLI.run(["verify", fixture.sourcePath, "--source", fixture.sourcePath])
        #expect(notPackage.exitCode == 1 && notPackage.stderr.contains("not a package"), "\(notPackage.stderr)")
        let text = fixture.directory.path("notes.txt")
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: text))
        let garbage = CLI.run(["verify", text, "--source", fixture.sourcePath])
        #expect(garbage.exitCode == 1 && garbage.stderr.contains("notes.txt"), "\(garbage.stderr)")
        let noSource = CLI.run(["verify", url.path, "--source", fixture.directory.path("gone.gpkg")])
        #expect(noSource.exitCode == 1 && noSource.stderr.contains("gone.gpkg") && noSource.stderr.contains("does not exist"), "\(noSource.stderr)")
        let usage = CLI.run(["verify"])
        #expect(usage.exitCode == 64)
        #expect(try dump(fixture.sourcePath) == before.0)
        #expect(try dump(data(url)) == before.1)
    }
}
