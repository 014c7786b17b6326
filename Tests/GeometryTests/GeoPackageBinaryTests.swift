import Foundation
import Testing
import TestSupport
@testable import Geometry

@Suite("GeoPackageBinary")
struct GeoPackageBinaryTests {
    @Test("every blob of the real layers decodes and re-encodes byte-identically", arguments: LayerBlobs.all)
    func realDataRoundTrip(_ layer: LayerBlobs) throws {
        let rows = try layer.rows()
        #expect(rows.count > 50)
        for (fid, blob) in rows {
            let gp = try GeoPackageBinary(bytes: blob)
            #expect(gp.srsID == 4326, "fid \(fid)")
            #expect(!gp.isEmpty)
            #expect(gp.encoded() == blob, "fid \(fid) of \(layer)")
            #expect(try GeoPackageBinary.isEmpty(blob) == false)
            // The header envelope, when there is one, is the geometry's own.
            if let header = gp.envelope { #expect(header.xy == gp.geometry.envelope, "fid \(fid)") }
            #expect(try GeoPackageBinary.envelope(of: blob) == gp.geometry.envelope)
        }
    }

    @Test("the envelopes agree with the R-tree GDAL wrote", arguments: LayerBlobs.all)
    func envelopesMatchGDALRTree(_ layer: LayerBlobs) throws {
        // The R-tree stores 32-bit floats (GDAL's bulk load rounds to nearest, not outwards),
        // so each bound of ours must agree to float precision.
        let r = try runProcess("sqlite3", ["-readonly", "-separator", "|", TestData.url(layer.file).path,
                                           "SELECT id, minx, maxx, miny, maxy FROM rtree_\(layer.table)_geom ORDER BY id"])
        try #require(r.status == 0, "\(r.stderr)")
        var rtree: [Int: [Double]] = [:]
        for line in r.stdout.split(separator: "\n") {
            let f = line.split(separator: "|").compactMap { Double($0) }
            rtree[Int(f[0])] = Array(f.dropFirst())
        }
        let rows = try layer.rows()
        #expect(rtree.count == rows.count)
        for (fid, blob) in rows {
            let e = try #require(try GeoPackageBinary.envelope(of: blob))
            let box = try #require(rtree[fid], "fid \(fid) missing from the R-tree")
            let ours = [e.minX, e.maxX, e.minY, e.maxY]
            for (i, v) in ours.enumerated() {
                #expect(abs(v - box[i]) <= 1e-5 * max(1, abs(v)), "fid \(fid) bound \(i): \(v) vs \(box[i])")
            }
        }
    }

    @Test func pointsWithoutHeaderEnvelopeFallBackToTheWKB() throws {
        let gp = GeoPackageBinary(geometry: .point(Point(x: -150.5, y: 63.25)), srsID: 4326, envelopeKind: .none)
        let blob = gp.encoded()
        #expect(blob.count == 8 + 21)
        #expect(blob[3] == 0x01)
        #expect(try GeoPackageBinary.envelope(of: blob) == Envelope(minX: -150.5, minY: 63.25, maxX: -150.5, maxY: 63.25))
    }

    @Test func constructorComputesTheEnvelopeKinds() throws {
        let line = Geometry.lineString(LineString([
            Coordinate(x: 1, y: 5, z: 10, m: .nan), Coordinate(x: -2, y: 7, z: -3, m: 8), Coordinate(x: 4, y: 6, z: 0, m: 2),
        ]))
        for kind in GeoPackageEnvelopeKind.allCases {
            let gp = GeoPackageBinary(geometry: line, srsID: 3338, envelopeKind: kind)
            #expect(gp.envelopeKind == kind)
            let blob = gp.encoded()
            #expect(blob[3] == kind.rawValue << 1 | 1)
            #expect(blob.count == 8 + kind.doubleCount * 8 + line.wkb().count)
            let back = try GeoPackageBinary(bytes: blob)
            // Compared as bytes: the NaN m of the first coordinate never equals itself.
            #expect(back.encoded() == blob)
            #expect(back.envelope == gp.envelope)
            #expect(back.srsID == 3338)
            #expect(try GeoPackageBinary.envelope(of: blob) == Envelope(minX: -2, minY: 5, maxX: 4, maxY: 7))
        }
        let zm = GeoPackageBinary(geometry: line, srsID: 0, envelopeKind: .xyzm).envelope
        #expect(zm?.z == .init(min: -3, max: 10))
        // NaN m values are skipped.
        #expect(zm?.m == .init(min: 2, max: 8))
        // A z range asked of a geometry without z is NaN.
        let flat = GeoPackageBinary(geometry: .point(Point(x: 1, y: 2)), srsID: 0, envelopeKind: .xyz).envelope
        #expect(flat?.z?.min.isNaN == true && flat?.z?.max.isNaN == true)
    }

    @Test("Z, M and ZM geometries round-trip with every envelope kind", arguments: dimensionSamples)
    func dimensions(_ g: Geometry) throws {
        for kind in GeoPackageEnvelopeKind.allCases {
            let blob = GeoPackageBinary(geometry: g, srsID: 4326, envelopeKind: kind).encoded()
            let back = try GeoPackageBinary(bytes: blob)
            #expect(back.geometry == g)
            #expect(back.envelopeKind == kind)
            #expect(back.encoded() == blob)
            if g.dimension.hasZ, kind == .xyz || kind == .xyzm {
                var zs: [Double] = []
                g.forEachCoordinate { zs.append($0.z!) }
                #expect(back.envelope?.z == .init(min: zs.min()!, max: zs.max()!))
            }
        }
    }

    @Test(arguments: [Geometry.point(Point(nil)), .polygon(Polygon([])), .multiPolygon(MultiPolygon([])),
                      .geometryCollection(GeometryCollection([]))])
    func emptyGeometries(_ g: Geometry) throws {
        let gp = GeoPackageBinary(geometry: g, srsID: 4326)
        #expect(gp.isEmpty)
        #expect(gp.envelope == nil)
        let blob = gp.encoded()
        #expect(blob[3] == 0x11)
        #expect(try GeoPackageBinary.isEmpty(blob))
        #expect(try GeoPackageBinary.envelope(of: blob) == nil)
        let back = try GeoPackageBinary(bytes: blob)
        #expect(back.geometry == g)
        #expect(back.encoded() == blob)
    }

    @Test func emptyPointWithNaNEnvelope() throws {
        // GeoPackage's other form of an empty point: flag clear, an xy envelope of NaN.
        var blob: [UInt8] = [0x47, 0x50, 0, 0x03, 0xE6, 0x10, 0, 0]
        for _ in 0..<4 { withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { blob += $0 } }
        blob += Geometry.point(Point(nil)).wkb()
        let gp = try GeoPackageBinary(bytes: blob)
        #expect(gp.geometry == .point(Point(nil)))
        #expect(gp.encoded() == blob)
        #expect(try GeoPackageBinary.envelope(of: blob) == nil)
    }

    @Test func bigEndianHeaderAndWKBRoundTrip() throws {
        let line = Geometry.lineString(LineString([Coordinate(0, 0), Coordinate(1, 2)]))
        var gp = GeoPackageBinary(geometry: line, srsID: 32606)
        gp.headerByteOrder = .bigEndian
        gp.wkbByteOrder = .bigEndian
        let blob = gp.encoded()
        #expect(blob[3] & 1 == 0)
        #expect(Array(blob[4..<8]) == [0, 0, 0x7F, 0x5E])
        let back = try GeoPackageBinary(bytes: blob)
        #expect(back.headerByteOrder == .bigEndian && back.wkbByteOrder == .bigEndian)
        #expect(back.srsID == 32606)
        #expect(back.encoded() == blob)
        #expect(try GeoPackageBinary.envelope(of: blob) == Envelope(minX: 0, minY: 0, maxX: 1, maxY: 2))
    }

    // MARK: Bad input

    static let valid = GeoPackageBinary(geometry: .polygon(Envelope(minX: 0, minY: 0, maxX: 1, maxY: 1).polygon), srsID: 4326).encoded()

    @Test func badMagic() throws {
        var b = Self.valid
        b[0] = UInt8(ascii: "X")
        let error = #expect(throws: GeometryError.self) { try GeoPackageBinary(bytes: b) }
        #expect(error?.kind == .malformedInput)
        #expect(error?.message.contains("magic") == true)
        #expect(throws: GeometryError.self) { try GeoPackageBinary.envelope(of: b) }
        #expect(throws: GeometryError.self) { try GeoPackageBinary.isEmpty(b) }
        // Plain WKB is not a GeoPackage blob.
        #expect(throws: GeometryError.self) { try GeoPackageBinary(bytes: Geometry.point(Point(x: 1, y: 2)).wkb()) }
    }

    @Test func unknownVersion() throws {
        var b = Self.valid
        b[2] = 1
        let error = #expect(throws: GeometryError.self) { try GeoPackageBinary(bytes: b) }
        #expect(error?.kind == .unsupported)
    }

    @Test func extendedGeometryType() throws {
        var b = Self.valid
        b[3] |= 0x20
        let error = #expect(throws: GeometryError.self) { try GeoPackageBinary(bytes: b) }
        #expect(error?.kind == .unsupported)
        #expect(error?.message.contains("extended") == true)
    }

    @Test(arguments: [UInt8(5), 6, 7])
    func invalidEnvelopeCode(_ code: UInt8) throws {
        var b = Self.valid
        b[3] = code << 1 | 1
        b += [UInt8](repeating: 0, count: 64)
        let error = #expect(throws: GeometryError.self) { try GeoPackageBinary(bytes: b) }
        #expect(error?.kind == .malformedInput)
        #expect(error?.message.contains("envelope contents indicator \(code)") == true)
        #expect(throws: GeometryError.self) { try GeoPackageBinary.envelope(of: b) }
    }

    @Test("every truncation of a valid blob is an error")
    func truncated() throws {
        for n in 0..<Self.valid.count {
            #expect(throws: GeometryError.self) { try GeoPackageBinary(bytes: Array(Self.valid.prefix(n))) }
        }
        // Cut inside the header envelope: the fast path must notice too.
        #expect(throws: GeometryError.self) { try GeoPackageBinary.envelope(of: Array(Self.valid.prefix(30))) }
        // Cut inside the WKB of a blob without a header envelope.
        let point = GeoPackageBinary(geometry: .point(Point(x: 1, y: 2)), srsID: 4326, envelopeKind: .none).encoded()
        #expect(throws: GeometryError.self) { try GeoPackageBinary.envelope(of: Array(point.prefix(20))) }
    }

    @Test func absurdCountInsideABlob() throws {
        var b = Array(Self.valid.prefix(8 + 32)) + [1, 3, 0, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F]
        b += [UInt8](repeating: 0, count: 32)
        b[3] = 0x03
        #expect(throws: GeometryError.self) { try GeoPackageBinary(bytes: b) }
        // The fast path reads the header envelope and never looks at the WKB; without an
        // envelope it walks the WKB and must fail fast as well.
        b.removeSubrange(8..<40)
        b[3] = 0x01
        #expect(throws: GeometryError.self) { try GeoPackageBinary.envelope(of: b) }
    }
}
