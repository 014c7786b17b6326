import Foundation
import PkgBuildCLI
import TestSupport
import Testing

/// `edit`, `identify` and `related` summarise geometries (type, parts, vertices, envelope)
/// unless `--full-geometry` asks for the WKT; the summary's numbers are GDAL's.
@Suite struct GeometryOutputTests {
    /// GDAL's reading of Denali's polygon: parts, vertices, and its envelope.
    func gdalDenali(_ path: String) throws -> (parts: Int, vertices: Int, envelope: [Double]) {
        let r = try runProcess("/usr/bin/python3", ["-c", """
            import sys
            from osgeo import ogr
            ds = ogr.Open(sys.argv[1])
            layer = ds.GetLayerByName('parks')
            layer.SetAttributeFilter("unit_code = 'DENA'")
            f = layer.GetNextFeature()
            g = f.GetGeometryRef()
            n = sum(g.GetGeometryRef(i).GetGeometryRef(j).GetPointCount()
                    for i in range(g.GetGeometryCount()) for j in range(g.GetGeometryRef(i).GetGeometryCount()))
            e = g.GetEnvelope()
            print(g.GetGeometryCount(), n, e[0], e[2], e[1], e[3])
            """, path])
        let numbers = r.stdout.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        try #require(numbers.count == 6, "\(r.stdout) \(r.stderr)")
        return (Int(numbers[0]), Int(numbers[1]), Array(numbers[2...]))
    }

    @Test func editPrintsASummaryUnlessTheWholeGeometryIsAsked() throws {
        let demo = try DemoPackage()
        let gdal = try gdalDenali(demo.dataPath)
        let short = CLI.run(["edit", demo.packagePath, "--layer", "parks", "--id", "60", "--set", "note=checked"])
        #expect(short.exitCode == 0, "\(short.stderr)")
        let e = gdal.envelope.map { String(describing: $0).replacingOccurrences(of: ".0$", with: "", options: .regularExpression) }
        let summary = "  geometry = MULTIPOLYGON (\(gdal.parts) part\(gdal.parts == 1 ? "" : "s"), \(gdal.vertices) vertices, "
            + "envelope \(e[0]) \(e[1]), \(e[2]) \(e[3]))\n"
        #expect(short.stdout.hasSuffix(summary), "\(short.stdout)")
        #expect(short.stdout.utf8.count < 1000, "\(short.stdout.utf8.count) bytes")

        let full = CLI.run(["edit", demo.packagePath, "--layer", "parks", "--id", "60", "--set", "note=again", "--full-geometry"])
        #expect(full.exitCode == 0, "\(full.stderr)")
        #expect(full.stdout.contains("  geometry = MULTIPOLYGON ((("), "\(full.stdout.prefix(300))")
        #expect(full.stdout.split(separator: "\n").last?.split(separator: ",").count == gdal.vertices)
    }

    @Test(arguments: [
        ["identify", "--at", "-150.5,63.3", "--layer", "parks"],
        ["edit", "--layer", "parks", "--id", "60", "--set", "note=checked"],
    ])
    func jsonSummarisesTheGeometryAndTheWKTIsAsked(command: [String]) throws {
        let demo = try DemoPackage()
        let gdal = try gdalDenali(demo.dataPath)
        for full in [false, true] {
            let argv = [command[0], demo.packagePath] + command.dropFirst() + ["--json"] + (full ? ["--full-geometry"] : [])
            let r = CLI.run(argv)
            #expect(r.exitCode == 0, "\(r.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
            let feature = try #require(((object as? [String: Any])?["features"] as? [[String: Any]] ?? object as? [[String: Any]])?.first)
            let geometry = try #require(feature["geometry"] as? [String: Any], "\(feature)")
            #expect(geometry["type"] as? String == "MULTIPOLYGON" && geometry["dimension"] as? String == "XY")
            #expect(geometry["parts"] as? Int == gdal.parts && geometry["vertices"] as? Int == gdal.vertices)
            #expect(geometry["envelope"] as? [Double] == gdal.envelope)
            #expect((geometry["wkt"] as? String)?.hasPrefix("MULTIPOLYGON (((") == (full ? true : nil), "\(argv)")
        }
    }
}
