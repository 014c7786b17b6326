import Foundation
import PkgBuildCLI
import TestSupport
import Testing

/// An invalid `--area` is made valid, and every command that takes one says so: what was
/// wrong, and the area it became (as GDAL's MakeValid makes it).
@Suite struct AreaRepairTests {
    static let bowTie = "POLYGON((-153 61, -148 64, -148 61, -153 64, -153 61))"

    /// GDAL's judgement of the area: where it intersects itself, and the valid area's parts,
    /// vertices and envelope.
    func gdalRepair(_ wkt: String) throws -> (where: String, parts: Int, vertices: Int, envelope: [Double]) {
        let r = try runProcess("/usr/bin/python3", ["-c", """
            import sys
            from osgeo import ogr, gdal
            messages = []
            gdal.PushErrorHandler(lambda c, n, m: messages.append(m))
            g = ogr.CreateGeometryFromWkt(sys.argv[1])
            assert not g.IsValid()
            v = g.MakeValid()
            e = v.GetEnvelope()
            n = sum(v.GetGeometryRef(i).GetGeometryRef(j).GetPointCount()
                    for i in range(v.GetGeometryCount()) for j in range(v.GetGeometryRef(i).GetGeometryCount()))
            print(messages[0].split('point ')[1]); print(v.GetGeometryCount()); print(n)
            print(e[0], e[2], e[1], e[3])
            """, wkt])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(r.stdout) \(r.stderr)")
        return (lines[0], Int(lines[1]) ?? -1, Int(lines[2]) ?? -1, lines[3].split(separator: " ").compactMap { Double($0) })
    }

    func run(_ command: String, area: String, in dir: TemporaryDirectory) throws -> CLIResult {
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let raster = TestData.url("ne_raster_z0-5.mbtiles").path
        switch command {
        case "tiles": return CLI.run(["tiles", "--area", area, "--zoom", "0-3", "--from", raster, "--dry-run"])
        case "estimate": return CLI.run(["estimate", "--area", area, "--features", source])
        default: return CLI.run(["create", "--area", area, "--features", source, "-o", dir.path("a.pkg")])
        }
    }

    @Test(arguments: ["create", "estimate", "tiles"])
    func aSelfIntersectingAreaIsRepairedAndSaidSo(command: String) throws {
        let dir = try TemporaryDirectory()
        let r = try run(command, area: Self.bowTie, in: dir)
        #expect(r.exitCode == 0, "\(r.stderr)")
        let gdal = try gdalRepair(Self.bowTie)
        let point = gdal.where.split(separator: " ").joined(separator: ", ")
        let e = gdal.envelope.map { String(format: "%g", $0) }
        for expected in ["--area \(Self.bowTie) is not a valid polygon (Self-intersection at (\(point)))",
                         "it was repaired and is taken as MULTIPOLYGON (\(gdal.parts) parts, \(gdal.vertices) vertices, "
                            + "envelope \(e[0]) \(e[1]), \(e[2]) \(e[3])) in EPSG:4326: MULTIPOLYGON ((("] {
            #expect(r.stderr.contains(expected), "\(expected) in \(r.stderr)")
        }
        if command == "create" {
            let manifest = try String(contentsOfFile: dir.path("a.pkg/manifest.json"), encoding: .utf8)
            #expect(manifest.contains("MULTIPOLYGON"), "\(manifest)")
        }
    }

    @Test(arguments: ["create", "estimate", "tiles"])
    func aValidAreaIsNotReported(command: String) throws {
        let dir = try TemporaryDirectory()
        let r = try run(command, area: "POLYGON((-153 61, -148 61, -148 64, -153 64, -153 61))", in: dir)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("not a valid polygon"), "\(r.stderr)")
    }
}
