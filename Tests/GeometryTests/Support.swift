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
