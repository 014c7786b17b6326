import Foundation
import PkgBuildCLI
import TestSupport
import Testing

/// `edit` on a 3-D point layer with a BLOB column (as GDAL writes one): a move keeps the
/// point's Z unless given, and BLOBs are set from hex or a file and shown as hex; GDAL reads
/// back what was written.
@Suite struct PointZAndBlobTests {
    /// The demo package with a `wells` layer (POINT Z, a BLOB `photo`) added by GDAL to its source.
    func wellsPackage(_ dir: TemporaryDirectory) throws -> (package: String, data: String) {
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg", as: "source.gpkg")
        let added = try runProcess("/usr/bin/python3", ["-c", """
            import sys
            from osgeo import ogr, osr
            ds = ogr.Open(sys.argv[1], 1)
            srs = osr.SpatialReference()
            srs.ImportFromEPSG(4326)
            layer = ds.CreateLayer('wells', srs, ogr.wkbPoint25D, ['GEOMETRY_NAME=geom', 'FID=fid'])
            layer.CreateField(ogr.FieldDefn('name', ogr.OFTString))
            layer.CreateField(ogr.FieldDefn('photo', ogr.OFTBinary))
            f = ogr.Feature(layer.GetLayerDefn())
            f.SetField('name', 'w1')
            f.SetGeometry(ogr.CreateGeometryFromWkt('POINT Z (-150 61 100)'))
            layer.CreateFeature(f)
            ds = None
            """, source])
        try #require(added.status == 0, "\(added.stderr)")
        let package = dir.path("wells.pkg")
        let created = CLI.run(["create", "--features", source, "--area", "-153.5,60.8,-147.5,64.3", "-o", package])
        try #require(created.exitCode == 0, "\(created.stderr)")
        return (package, package + "/data.gpkg")
    }

    /// The well as GDAL reads it: its WKT and its photo in hex.
    func gdalWell(_ data: String) throws -> (wkt: String, photo: String) {
        let r = try runProcess("/usr/bin/python3", ["-c", """
            import sys
            from osgeo import ogr
            ds = ogr.Open(sys.argv[1])
            f = ds.GetLayerByName('wells').GetNextFeature()
            print(f.GetGeometryRef().ExportToIsoWkt())
            print(f.GetFieldAsBinary('photo').hex().upper() if f.IsFieldSetAndNotNull('photo') else '-')
            """, data])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(r.stdout) \(r.stderr)")
        return (lines[0], lines[1])
    }

    @Test func aMoveKeepsTheZUnlessGivenOne() throws {
        let dir = try TemporaryDirectory()
        let (package, data) = try wellsPackage(dir)
        let kept = CLI.run(["edit", package, "--layer", "wells", "--id", "1", "--move", "-150.5,61.5"])
        #expect(kept.exitCode == 0, "\(kept.stderr)")
        #expect(try gdalWell(data).wkt == "POINT Z (-150.5 61.5 100)")
        #expect(kept.stdout.contains("  geometry = POINT Z (-150.5 61.5 100)\n"), "\(kept.stdout)")
        let given = CLI.run(["edit", package, "--layer", "wells", "--id", "1", "--move", "-150.25,61.25,42.5"])
        #expect(given.exitCode == 0, "\(given.stderr)")
        #expect(try gdalWell(data).wkt == "POINT Z (-150.25 61.25 42.5)")

        let before = try sqliteDump(data)
        let flat = CLI.run(["edit", package, "--layer", "airports", "--id", "8", "--move", "-149.9,61.2,10"])
        #expect(flat.exitCode == 1 && flat.stderr.contains("layer 'airports' takes no Z values"), "\(flat.stderr)")
        let bad = CLI.run(["edit", package, "--layer", "wells", "--id", "1", "--move", "-150,61,1,2"])
        #expect(bad.exitCode == 64 && bad.stderr.contains("X,Y or X,Y,Z"), "\(bad.stderr)")
        #expect(try sqliteDump(data) == before)
    }

    @Test func blobsAreSetFromHexOrAFileAndShownAsHex() throws {
        let dir = try TemporaryDirectory()
        let (package, data) = try wellsPackage(dir)
        let hex = CLI.run(["edit", package, "--layer", "wells", "--id", "1", "--set", "photo=x'cafe00Ff'"])
        #expect(hex.exitCode == 0, "\(hex.stderr)")
        #expect(try gdalWell(data).photo == "CAFE00FF")
        #expect(hex.stdout.contains("  photo = x'CAFE00FF' (4 bytes)\n"), "\(hex.stdout)")

        let bytes = (0..<40).map { UInt8(($0 * 37 + 11) % 256) }
        let file = dir.path("photo.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let fromFile = CLI.run(["edit", package, "--layer", "wells", "--id", "1", "--set", "photo=@" + file, "--json"])
        #expect(fromFile.exitCode == 0, "\(fromFile.stderr)")
        let allHex = bytes.map { String(format: "%02X", $0) }.joined()
        #expect(try gdalWell(data).photo == allHex)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(fromFile.stdout.utf8)) as? [String: Any])
        let feature = try #require((json["features"] as? [[String: Any]])?.first)
        let photo = try #require((feature["attributes"] as? [String: Any])?["photo"] as? [String: Any], "\(feature)")
        #expect(photo["byte_count"] as? Int == 40 && photo["complete"] as? Bool == false)
        #expect(photo["hex"] as? String == String(allHex.prefix(32)))
        let text = CLI.run(["edit", package, "--layer", "wells", "--id", "1", "--set", "name=w2"])
        #expect(text.stdout.contains("  photo = x'\(allHex.prefix(32))...' (40 bytes)\n"), "\(text.stdout)")
    }

    @Test(arguments: [
        ("photo=hello", "'photo' of layer 'wells' is BLOB: 'hello' is neither x'HEX' (an even number of hex digits) nor @FILE"),
        ("photo=x'ABC'", "is neither x'HEX'"),
        ("photo=x'GG'", "is neither x'HEX'"),
        ("photo=@/nonexistent/photo.jpg", "cannot read the file /nonexistent/photo.jpg"),
    ])
    func aBlobThatCannotBeReadIsRefused(set: String, message: String) throws {
        let dir = try TemporaryDirectory()
        let (package, data) = try wellsPackage(dir)
        let before = try sqliteDump(data)
        let r = CLI.run(["edit", package, "--layer", "wells", "--id", "1", "--set", set])
        #expect(r.exitCode == 1 && r.stderr.contains(message), "\(r.stderr)")
        #expect(try sqliteDump(data) == before)
    }
}
