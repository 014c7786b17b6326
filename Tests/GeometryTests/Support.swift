import Foundation
import Geometry
import TestSupport

/// The geometry blobs of a GeoPackage layer, read live with the `sqlite3` shell so the codec
/// tests depend on no SQLite wrapper.
struct LayerBlobs: Sendable, CustomStringConvertible {
    var file: String
    var table: String
    var description: String { "\(file):\(table)" }

    static let all = [
        LayerBlobs(file: "naturalearth.gpkg", table: "countries"),
        LayerBlobs(file: "naturalearth.gpkg", table: "cities"),
        LayerBlobs(file: "ne_parks.gpkg", table: "parks"),
    ]

    /// (fid, blob) for every row with a geometry, in fid order.
    func rows() throws -> [(fid: Int, blob: [UInt8])] {
        let r = try runProcess("sqlite3", ["-readonly", "-separator", "|", TestData.url(file).path,
                                           "SELECT fid, hex(geom) FROM \(table) WHERE geom IS NOT NULL ORDER BY fid"])
        guard r.status == 0 else { throw TestFailure("sqlite3 failed on \(self): \(r.stderr)") }
        return try r.stdout.split(separator: "\n").map { line in
            let parts = line.split(separator: "|")
            guard parts.count == 2, let fid = Int(parts[0]), let blob = bytes(hex: parts[1]) else {
                throw TestFailure("unexpected sqlite3 output line in \(self): \(line.prefix(80))")
            }
            return (fid, blob)
        }
    }

    /// The geometries of every row, decoded by our GeoPackageBinary decoder.
    func geometries() throws -> [(fid: Int, geometry: Geometry)] {
        try rows().map { ($0.fid, try GeoPackageBinary(bytes: $0.blob).geometry) }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

func bytes<S: StringProtocol>(hex: S) -> [UInt8]? {
    let utf8 = Array(hex.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count / 2)
    var i = 0
    while i < utf8.count {
        guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else { return nil }
        out.append(hi << 4 | lo)
        i += 2
    }
    return out
}

private func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}

func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// One row of testdata/fixtures/wkb_gdal.tsv: a geometry as GDAL reads and writes it.
struct GDALWKBFixture: Sendable, CustomStringConvertible {
    var wkt: String
    var gdalWKT: String
    var isoLittleEndian: [UInt8]
    var isoBigEndian: [UInt8]
    var oldOGCLittleEndian: [UInt8]?
    var description: String { wkt }

    static func load() throws -> [GDALWKBFixture] {
        let text = try String(contentsOf: TestData.fixture("wkb_gdal.tsv"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5, let le = bytes(hex: f[2]), let be = bytes(hex: f[3]) else {
                throw TestFailure("bad fixture line: \(line)")
            }
            return GDALWKBFixture(wkt: f[0], gdalWKT: f[1], isoLittleEndian: le, isoBigEndian: be,
                                  oldOGCLittleEndian: f[4] == "-" ? nil : bytes(hex: f[4]))
        }
    }

    /// Empty points lose their Z/M flag in our model, so their bytes cannot round-trip.
    var isEmptyWithOrdinates: Bool { wkt.hasSuffix(" EMPTY") && (wkt.contains(" Z ") || wkt.contains(" M ")) }
}

/// Equal geometries where NaN equals NaN (empty points are NaN in WKB, never in our values).
func sameBits(_ a: Geometry, _ b: Geometry) -> Bool {
    a.wkb() == b.wkb()
}

/// The features of a CSV written by `ogr2ogr -f CSV -lco GEOMETRY=AS_WKT` with a
/// `feature_id` column: (fid, GDAL's WKT).
func gdalWKTFixture(_ name: String) throws -> [(fid: Int, wkt: String)] {
    let text = try String(contentsOf: TestData.fixture(name), encoding: .utf8)
    return try text.split(separator: "\n").dropFirst().map { line in
        // "WKT","fid"
        guard let split = line.range(of: "\",\""), let fid = Int(line[split.upperBound...].dropLast()) else {
            throw TestFailure("bad CSV line in \(name): \(line.prefix(60))")
        }
        return (fid, String(line[line.index(after: line.startIndex)..<split.lowerBound]))
    }
}

/// Same structure and ordinates, every number within `relative` (GDAL prints 15 digits).
func approximatelyEqual(_ a: Geometry, _ b: Geometry, relative: Double = 1e-12) -> Bool {
    let zero = { (c: Coordinate) in Coordinate(x: 0, y: 0, z: c.z.map { _ in 0 }, m: c.m.map { _ in 0 }) }
    guard a.mapCoordinates(zero) == b.mapCoordinates(zero) else { return false }
    var first: [Double] = []
    a.forEachCoordinate { first += [$0.x, $0.y, $0.z ?? 0, $0.m ?? 0] }
    var i = 0, ok = true
    b.forEachCoordinate { c in
        for v in [c.x, c.y, c.z ?? 0, c.m ?? 0] {
            if abs(first[i] - v) > relative * max(1, abs(v)) { ok = false }
            i += 1
        }
    }
    return ok
}

/// Equal except that any ring may run the other way.
func equalUpToOrientation(_ a: Geometry, _ b: Geometry) -> Bool {
    func rings(_ p: Polygon, _ q: Polygon) -> Bool {
        p.rings.count == q.rings.count && zip(p.rings, q.rings).allSatisfy { $0 == $1 || $0 == $1.reversed() }
    }
    switch (a, b) {
    case (.polygon(let p), .polygon(let q)): return rings(p, q)
    case (.multiPolygon(let p), .multiPolygon(let q)):
        return p.polygons.count == q.polygons.count && zip(p.polygons, q.polygons).allSatisfy(rings)
    case (.geometryCollection(let p), .geometryCollection(let q)):
        return p.geometries.count == q.geometries.count && zip(p.geometries, q.geometries).allSatisfy(equalUpToOrientation)
    default: return a == b
    }
}

/// Geometries with Z and M to push through every codec.
let dimensionSamples: [Geometry] = [
    .point(Point(x: 1, y: 2, z: 3, m: 4)),
    .point(Point(x: -0.1, y: 1e-300, z: 2.5)),
    .point(Point(x: 1, y: 2, m: 7)),
    .lineString(LineString([Coordinate(x: 0, y: 0, m: 10), Coordinate(x: 1, y: 1, m: 20.5)])),
    .lineString(LineString([Coordinate(x: 0, y: 0, z: 1, m: 10), Coordinate(x: 1.0000000000000002, y: 1, z: 2, m: 20)])),
    .polygon(Polygon([[Coordinate(x: 0, y: 0, z: 1), Coordinate(x: 10, y: 0, z: 2), Coordinate(x: 10, y: 10, z: 3), Coordinate(x: 0, y: 0, z: 1)]])),
    .multiPoint(MultiPoint([Point(x: 1, y: 2, z: 3), Point(x: 4, y: 5, z: 6)])),
    .multiLineString(MultiLineString([LineString([Coordinate(x: 0, y: 0, m: 1), Coordinate(x: 1, y: 1, m: 2)])])),
    .multiPolygon(MultiPolygon([Polygon([[Coordinate(x: 0, y: 0, z: 1, m: 2), Coordinate(x: 1, y: 0, z: 3, m: 4),
                                          Coordinate(x: 1, y: 1, z: 5, m: 6), Coordinate(x: 0, y: 0, z: 1, m: 2)]])])),
    .geometryCollection(GeometryCollection([.point(Point(x: 1, y: 2, z: 3)),
                                            .lineString(LineString([Coordinate(x: 0, y: 0, z: 0), Coordinate(x: 1, y: 1, z: 1)]))])),
]
