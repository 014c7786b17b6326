import Foundation
import Geodatabase
import Geometry
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// A small source written by GDAL's layer API, with Z, M, line and polygon layers the demo
/// source lacks; packages cut from it; edits made and geometries read back with GDAL.
final class GDALLayerSource {
    let directory: TemporaryDirectory
    let sourcePath: String

    /// Each layer with its one feature (named after the layer) as GDAL wrote it.
    static let layers: [(name: String, type: String, wkt: String)] = [
        ("pointz", "wkbPoint25D", "POINT Z (-150 61 100)"),
        ("pointm", "wkbPointM", "POINT M (-150 61 5)"),
        ("line", "wkbLineString", "LINESTRING (-150 61,-149 61.5,-148 62)"),
        ("poly", "wkbPolygon", "POLYGON ((-150 61,-149 61,-149 62,-150 62,-150 61))"),
    ]

    /// - Parameter reencoded: the source's blobs rewritten big-endian with an envelope (the
    ///   same geometries), so a GDAL re-save in the package changes the bytes and nothing else.
    init(reencoded: Bool = true, extra: String = "") throws {
        directory = try TemporaryDirectory("pkgbuild-geom")
        sourcePath = directory.path("source.gpkg")
        let layers = Self.layers.map { "layer('\($0.name)', ogr.\($0.type), '\($0.wkt)')" }.joined(separator: "\n")
        _ = try Self.gdal("""
            ds = ogr.GetDriverByName('GPKG').CreateDataSource(sys.argv[1])
            srs = osr.SpatialReference(); srs.ImportFromEPSG(4326)
            def layer(name, gtype, wkt, feature=None):
                lyr = ds.GetLayerByName(name) or ds.CreateLayer(name, srs, gtype)
                if lyr.GetLayerDefn().GetFieldIndex('name') < 0:
                    lyr.CreateField(ogr.FieldDefn('name', ogr.OFTString))
                f = ogr.Feature(lyr.GetLayerDefn()); f.SetField('name', feature or name)
                f.SetGeometry(ogr.CreateGeometryFromWkt(wkt)); lyr.CreateFeature(f)
            \(layers)
            \(extra)
            """, [sourcePath])
        let source = try GeoPackage(path: sourcePath)
        if reencoded {
            for layer in Self.layers {
                for row in try source.connection.query("SELECT fid, geom FROM \(layer.name)") {
                    guard case .blob(let bytes) = row[1] else { continue }
                    var g = try GeoPackageBinary(bytes: bytes)
                    let kind: GeoPackageEnvelopeKind = g.geometry.dimension.hasZ ? .xyz : .xy
                    g = GeoPackageBinary(geometry: g.geometry, srsID: g.srsID, envelopeKind: kind)
                    g.headerByteOrder = .bigEndian
                    g.wkbByteOrder = .bigEndian
                    try source.connection.execute("UPDATE \(layer.name) SET geom = ? WHERE fid = ?", [.blob(g.encoded()), row[0]])
                }
            }
        }
        try SourceGeodatabase(connection: source.connection).enable()
    }

    /// Runs a Python script with GDAL's bindings (`sys`, `ogr`, `osr` imported).
    @discardableResult
    static func gdal(_ script: String, _ arguments: [String]) throws -> String {
        // GDAL objects released child first: left to the interpreter's exit, they can crash it.
        let release = "\nfor _name in ('f', 'lyr', 'ds'): globals().pop(_name, None)\n"
        let result = try runProcess("/usr/bin/python3", ["-c", "import sys\nfrom osgeo import ogr, osr\nogr.UseExceptions()\n" + script + release]
                                    + arguments)
        guard result.status == 0 else { throw SyncError(.invalidArgument, "GDAL script failed (\(result.status)): \(result.stderr)\(result.stdout)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func makePackage(_ arguments: [String] = [], box: String = "-160,57,-140,66") throws -> URL {
        let url = directory.url.appendingPathComponent("area.pkg")
        let result = CLI.run(["create", "--area=\(box)", "--features", sourcePath, "--output", url.path] + arguments)
        guard result.exitCode == 0 else { throw SyncError(.invalidArgument, "create failed: \(result.stderr)") }
        return url
    }

    func dataPath(_ url: URL) -> String { url.appendingPathComponent("data.gpkg").path }

    /// Sets the geometry of the feature named `feature` with GDAL's layer API (SetFeature).
    func setGeometry(_ path: String, layer: String, feature: String? = nil, wkt: String) throws {
        try Self.gdal("""
            ds = ogr.Open(sys.argv[1], 1); lyr = ds.GetLayerByName(sys.argv[2])
            lyr.SetAttributeFilter("name = '%s'" % sys.argv[3])
            f = lyr.GetNextFeature(); f.SetGeometry(ogr.CreateGeometryFromWkt(sys.argv[4])); lyr.SetFeature(f)
            """, [path, layer, feature ?? layer, wkt])
    }

    /// Reads every feature of a layer with GDAL and writes it back unchanged (SetFeature).
    func resave(_ path: String, layer: String) throws {
        try Self.gdal("""
            ds = ogr.Open(sys.argv[1], 1); lyr = ds.GetLayerByName(sys.argv[2])
            for f in [f for f in lyr]: lyr.SetFeature(f)
            """, [path, layer])
    }

    /// The feature's geometry as GDAL reads it (ISO WKT).
    func wkt(_ path: String, layer: String, feature: String? = nil) throws -> String {
        try Self.gdal("""
            ds = ogr.Open(sys.argv[1]); lyr = ds.GetLayerByName(sys.argv[2])
            lyr.SetAttributeFilter("name = '%s'" % sys.argv[3])
            f = lyr.GetNextFeature(); print(f.GetGeometryRef().ExportToIsoWkt())
            """, [path, layer, feature ?? layer])
    }

    func sync(_ url: URL, policy: ConflictPolicy = .fail) throws -> SyncReport {
        try SyncSession(package: url, options: SyncOptions(source: sourcePath, direction: .bidirectional, policy: policy)).run()
    }
}

/// Geometry equality is exact: a new Z or M, a reversed line, a ring started at another
/// vertex is an edit, in both directions; a blob GDAL only re-encoded is not.
@Suite struct GeometryExactnessTests {
    /// Each layer's geometry after an edit GEOS's topological `equals` calls no change.
    static let edits: [(layer: String, wkt: String)] = [
        ("pointz", "POINT Z (-150 61 250)"),
        ("pointm", "POINT M (-150 61 9)"),
        ("line", "LINESTRING (-148 62,-149 61.5,-150 61)"),
        ("poly", "POLYGON ((-149 61,-149 62,-150 62,-150 61,-149 61))"),
    ]

    @Test("a field edit of Z, M, vertex order or ring start is listed, uploaded and cleared", arguments: edits)
    func uploaded(_ edit: (layer: String, wkt: String)) throws {
        let source = try GDALLayerSource()
        let url = try source.makePackage()
        try source.setGeometry(source.dataPath(url), layer: edit.layer, wkt: edit.wkt)
        let listed = try PendingEdits.list(package: url).edits
        #expect(listed.map(\.table) == [edit.layer] && listed.first?.changes.map(\.column) == ["geom"])

        let report = try source.sync(url)
        #expect(report.uploaded.updated == 1, "\(report)")
        #expect(try source.wkt(source.sourcePath, layer: edit.layer) == edit.wkt)
        #expect(try PendingEdits.list(package: url).edits.isEmpty)
        #expect(try source.wkt(source.dataPath(url), layer: edit.layer) == edit.wkt)
    }

    @Test("an office edit of Z, M, vertex order or ring start comes down", arguments: edits)
    func downloaded(_ edit: (layer: String, wkt: String)) throws {
        let source = try GDALLayerSource()
        let url = try source.makePackage()
        try source.setGeometry(source.sourcePath, layer: edit.layer, wkt: edit.wkt)

        let report = try source.sync(url)
        #expect(report.downloaded.updated == 1, "\(report)")
        #expect(try source.wkt(source.dataPath(url), layer: edit.layer) == edit.wkt)
        #expect(try PendingEdits.list(package: url).edits.isEmpty)
    }

    @Test("a GDAL re-save of unchanged geometries (another blob, the same geometry) is no change")
    func reencodedIsNoChange() throws {
        let source = try GDALLayerSource()
        let url = try source.makePackage()
        let package = try GeoPackage(path: source.dataPath(url)).connection
        let sourceDB = try GeoPackage(path: source.sourcePath).connection
        for layer in GDALLayerSource.layers {
            let before = try package.scalar("SELECT hex(geom) FROM \(layer.name)")
            try source.resave(source.dataPath(url), layer: layer.name)
            let after = try package.scalar("SELECT hex(geom) FROM \(layer.name)")
            try #require(before != after, "GDAL kept the blob of \(layer.name): the test would prove nothing")
        }
        let sourceBefore = try GDALLayerSource.layers.map { try sourceDB.scalar("SELECT hex(geom) FROM \($0.name)") }
        #expect(try PendingEdits.list(package: url).edits.isEmpty)

        let report = try source.sync(url)
        #expect(report.uploaded.total == 0 && report.downloaded.total == 0 && report.conflicts.isEmpty, "\(report)")
        #expect(try GDALLayerSource.layers.map { try sourceDB.scalar("SELECT hex(geom) FROM \($0.name)") } == sourceBefore)
        for layer in GDALLayerSource.layers {
            #expect(try source.wkt(source.dataPath(url), layer: layer.name) == layer.wkt)
        }
    }
}
