import Foundation
import PkgBuildCLI
import TestSupport
import Testing

/// `create` and `estimate` check the area against the area of use of `--crs`: a package in a
/// CRS that does not cover its area is one whose geometry edits are all refused.
@Suite struct CreateAreaOfUseTests {
    static let area = "--area=-153.5,60.8,-147.5,64.3"

    /// PROJ's own statement of a CRS's area of use, from `projinfo` (BBOX[south,west,north,east]).
    func projinfoAreaOfUse(_ crs: String) throws -> (west: String, south: String, east: String, north: String) {
        let out = try runProcess("projinfo", [crs, "-o", "WKT2_2019"]).stdout
        let bbox = try #require(out.range(of: #"BBOX\[[^\]]*\]"#, options: .regularExpression))
        let numbers = out[bbox].dropFirst(5).dropLast().split(separator: ",").map { String($0) }
        try #require(numbers.count == 4, "\(out[bbox])")
        func shown(_ text: String) -> String { String(format: "%g", Double(text) ?? .nan) }
        return (shown(numbers[1]), shown(numbers[0]), shown(numbers[3]), shown(numbers[2]))
    }

    @Test(arguments: ["create", "estimate"])
    func aCRSWhollyElsewhereIsRefusedNamingItsAreaOfUseAndTheArea(command: String) throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        var argv = [command, Self.area, "--features", source, "--crs", "EPSG:2263"]
        if command == "create" { argv += ["-o", dir.path("a.pkg")] }
        let r = CLI.run(argv)
        #expect(r.exitCode == 1, "\(r.stderr)")
        let use = try projinfoAreaOfUse("EPSG:2263")
        for expected in ["--crs EPSG:2263", "NAD83 / New York Long Island (ftUS)",
                         "its area of use is longitude \(use.west) to \(use.east), latitude \(use.south) to \(use.north)",
                         "the area -153.5,60.8,-147.5,64.3 spans longitude -153.5 to -147.5, latitude 60.8 to 64.3"] {
            #expect(r.stderr.contains(expected), "\(expected) in \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".pkg") }.isEmpty)
    }

    /// UTM 6N covers 150W to 144W: an area from 153.5W is partly outside, a warning; Alaska
    /// Albers (whose area of use crosses the antimeridian) covers it all, no warning.
    @Test(arguments: [("EPSG:26906", true), ("EPSG:3338", false)])
    func aCRSCoveringPartOfTheAreaIsAWarning(crs: String, warns: Bool) throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let r = CLI.run(["create", Self.area, "--features", source, "--crs", crs, "-o", dir.path("a.pkg")])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let warning = "--crs \(crs) ("
        #expect(r.stderr.contains(warning) == warns, "\(r.stderr)")
        if warns {
            let use = try projinfoAreaOfUse(crs)
            #expect(r.stderr.contains("of the area lies outside the CRS's area of use (its area of use is longitude \(use.west) to \(use.east)"),
                    "\(r.stderr)")
            #expect(r.stderr.contains("geometry edits there will be refused"), "\(r.stderr)")
        }
    }

    /// A layer that keeps its source's CRS is the source's choice: a warning, never a refusal.
    @Test(arguments: ["create", "estimate"])
    func aLayerWhoseCRSDoesNotCoverTheAreaIsAWarning(command: String) throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let added = try runProcess("/usr/bin/python3", ["-c", """
            import sys
            from osgeo import ogr, osr
            ds = ogr.Open(sys.argv[1], 1)
            srs = osr.SpatialReference()
            srs.ImportFromEPSG(2263)
            layer = ds.CreateLayer('hydrants', srs, ogr.wkbPoint, ['GEOMETRY_NAME=geom', 'FID=fid'])
            f = ogr.Feature(layer.GetLayerDefn())
            f.SetGeometry(ogr.CreateGeometryFromWkt('POINT (1000000 200000)'))
            layer.CreateFeature(f)
            ds = None
            """, source])
        try #require(added.status == 0, "\(added.stderr)")
        var argv = [command, Self.area, "--features", source, "--no-register"]
        if command == "create" { argv += ["-o", dir.path("a.pkg")] } else { argv.removeLast() }
        let r = CLI.run(argv)
        #expect(r.exitCode == 0, "\(r.stderr)")
        let use = try projinfoAreaOfUse("EPSG:2263")
        let expected = "layer hydrants keeps its CRS EPSG:2263 (NAD83 / New York Long Island (ftUS)) and the area lies wholly "
            + "outside its area of use (its area of use is longitude \(use.west) to \(use.east), latitude \(use.south) to \(use.north); "
            + "the area -153.5,60.8,-147.5,64.3 spans longitude -153.5 to -147.5, latitude 60.8 to 64.3); geometry edits and "
            + "inserts there will be refused (--crs reprojects the layers)"
        #expect(r.stderr.contains(expected), "\(r.stderr)")
        #expect(!r.stderr.contains("layer parks") && !r.stderr.contains("layer airports"), "\(r.stderr)")
    }
}
