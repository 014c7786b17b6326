import Foundation
import Geometry
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// `pkgbuild changes --changeset` against geodiff: pygeodiff reads our changeset, and lists
/// exactly what it lists for its own changeset made between a copy of the package taken before
/// the edits and the package after them (edits made with GDAL).
@Suite struct ChangesetTests {
    /// Lists a changeset with pygeodiff, leaving out our own `pkgbuild_*` tables; with two
    /// arguments, first makes geodiff's own changeset between them.
    static let lister = """
        import json, sys, pygeodiff
        g = pygeodiff.GeoDiff()
        if len(sys.argv) == 4:
            g.create_changeset(sys.argv[1], sys.argv[2], sys.argv[3] + '.own')
            path = sys.argv[3] + '.own'
        else:
            path = sys.argv[1]
        g.list_changes(path, path + '.json')
        entries = [e for e in json.load(open(path + '.json')).get('geodiff', []) if not e['table'].startswith('pkgbuild_')]
        print(json.dumps(sorted(json.dumps(e, sort_keys=True) for e in entries)))
        """

    @Test func geodiffReadsTheSameChanges() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        let base = fixture.directory.path("base.gpkg")
        try fixture.openPackage(url).connection.execute("VACUUM INTO '\(base)'")
        for sql in ["UPDATE airports SET type = 'seaplane', geom = AsGPB(ST_GeomFromText('POINT(-152 57.9)', 4326)) WHERE name = 'Kodiak'",
                    "INSERT INTO airports (geom, name, scalerank) VALUES (AsGPB(ST_GeomFromText('POINT(-151.5 60.2)', 4326)), 'GDAL strip', 9)",
                    "DELETE FROM parks WHERE unit_code = 'ANIA'",
                    "UPDATE park_visitors SET survey_year = 2026 WHERE unit_code = 'DENA'",
                    "INSERT INTO airports (geom, name) VALUES (AsGPB(ST_GeomFromText('POINT(-150 60)', 4326)), 'gone')",
                    "DELETE FROM airports WHERE name = 'gone'"] {
            let r = try runProcess("ogrinfo", ["-q", data, "-sql", sql])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let changeset = fixture.directory.path("edits.changeset")
        let result = CLI.run(["changes", url.path, "--json", "--full-geometry", "--changeset", changeset])
        #expect(result.exitCode == 0, "\(result.stderr)")

        let ours = try runProcess(TestData.venvPython, ["-c", Self.lister, changeset])
        let theirs = try runProcess(TestData.venvPython, ["-c", Self.lister, base, data, fixture.directory.path("geodiff")])
        #expect(ours.status == 0, "\(ours.stderr)")
        #expect(theirs.status == 0, "\(theirs.stderr)")
        #expect(!ours.stdout.isEmpty && ours.stdout == theirs.stdout)

        // Our --json says the same: tables, operations, rows (fids) and changed values.
        let listed = try JSONSerialization.jsonObject(with: Data(ours.stdout.utf8)) as? [String] ?? []
        let geodiffEntries = try listed.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(json.count == geodiffEntries.count && json.count == 4)
        let (tables, _) = try PendingEdits.list(package: url)
        for edit in json {
            let table = try #require(tables.first { $0.name == edit["table"] as? String })
            let fid = edit["fid"] as? Int
            let match = geodiffEntries.first { entry in
                entry["table"] as? String == table.name && entry["type"] as? String == edit["operation"] as? String
                    && ((entry["changes"] as? [[String: Any]])?.first { $0["column"] as? Int == 0 }.map { ($0["old"] ?? $0["new"]) as? Int } ?? nil) == fid
            }
            let entry = try #require(match, "\(edit)")
            let changes = entry["changes"] as? [[String: Any]] ?? []
            for change in edit["changes"] as? [[String: Any]] ?? [] {
                let column = try #require(table.columns.firstIndex(of: change["column"] as? String ?? ""))
                let theirsChange = try #require(changes.first { $0["column"] as? Int == column }, "\(table.name).\(column)")
                for side in ["old", "new"] {
                    let mine = change[side], other = theirsChange[side]
                    if let text = other as? String, let bytes = Data(base64Encoded: text), table.isGeometry(table.columns[column]) {
                        #expect(try GeoPackageBinary(bytes: [UInt8](bytes)).geometry.wkt == (mine as? [String: Any])?["wkt"] as? String)
                    } else if !(mine is NSNull) || other != nil {
                        #expect("\(mine ?? "nil")" == "\(other ?? NSNull())", "\(table.name).\(table.columns[column]) \(side)")
                    }
                }
            }
        }
    }

    /// A polygon's old and new values are summarised under `--json` (type, parts, vertices and
    /// envelope, as GDAL reads them), and `--full-geometry` adds the WKT.
    @Test func jsonSummarisesGeometriesUnlessTheWholeIsAsked() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        // GDAL's reading of the biggest park before the edit: its fid, rings' vertices, envelope.
        let gdal = try runProcess("/usr/bin/python3", ["-c", """
            import sys
            from osgeo import ogr
            ds = ogr.Open(sys.argv[1])
            layer = ds.GetLayerByName('parks')
            best = max(layer, key=lambda f: f.GetGeometryRef().GetEnvelope()[1] - f.GetGeometryRef().GetEnvelope()[0])
            g = best.GetGeometryRef()
            n = sum(g.GetGeometryRef(i).GetGeometryRef(j).GetPointCount()
                    for i in range(g.GetGeometryCount()) for j in range(g.GetGeometryRef(i).GetGeometryCount()))
            e = g.GetEnvelope()
            print(best.GetFID(), g.GetGeometryCount(), n, e[0], e[2], e[1], e[3])
            """, data])
        let numbers = gdal.stdout.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        try #require(numbers.count == 7, "\(gdal.stdout) \(gdal.stderr)")
        let fid = Int(numbers[0])
        let square = "MULTIPOLYGON (((-150 63,-149 63,-149 64,-150 64,-150 63)))"
        let edit = try runProcess("ogrinfo", ["-q", data, "-sql",
                                              "UPDATE parks SET geom = AsGPB(ST_GeomFromText('\(square)', 4326)) WHERE fid = \(fid)"])
        #expect(edit.status == 0, "\(edit.stderr)")
        for full in [false, true] {
            let r = CLI.run(["changes", url.path, "--json"] + (full ? ["--full-geometry"] : []))
            #expect(r.exitCode == 0, "\(r.stderr)")
            let edits = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
            let changes = try #require(edits.first { $0["fid"] as? Int == fid }?["changes"] as? [[String: Any]])
            let geom = try #require(changes.first { $0["column"] as? String == "geom" })
            let old = try #require(geom["old"] as? [String: Any], "\(geom)")
            let new = try #require(geom["new"] as? [String: Any], "\(geom)")
            #expect(old["parts"] as? Int == Int(numbers[1]) && old["vertices"] as? Int == Int(numbers[2]))
            // Within a unit in the last place or so: JSON numbers are read back through text.
            let envelope = try #require(old["envelope"] as? [Double])
            #expect(envelope.count == 4 && zip(envelope, numbers[3...]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(envelope)")
            #expect(new["type"] as? String == "MULTIPOLYGON" && new["vertices"] as? Int == 5)
            #expect(new["envelope"] as? [Double] == [-150, 63, -149, 64])
            #expect((new["wkt"] as? String) == (full ? square : nil))
            #expect((old["wkt"] as? String)?.hasPrefix("MULTIPOLYGON (((") == (full ? true : nil))
            if !full { #expect(r.stdout.utf8.count < 2000, "\(r.stdout.utf8.count) bytes") }
        }
    }
}
