import Foundation
import Testing
import TestSupport
@testable import Geometry

@Suite("WKB")
struct WKBTests {
    @Test("GDAL's ISO WKB decodes and re-encodes byte-identically in both byte orders",
          arguments: try GDALWKBFixture.load())
    func gdalISO(_ f: GDALWKBFixture) throws {
        let fromLE = try Geometry(wkb: f.isoLittleEndian)
        let fromBE = try Geometry(wkb: f.isoBigEndian)
        #expect(fromLE == fromBE)
        #expect(fromLE.wkb(byteOrder: .littleEndian) == f.isoLittleEndian)
        #expect(fromLE.wkb(byteOrder: .bigEndian) == f.isoBigEndian)
    }

    @Test("GDAL's old-OGC WKB (Z as the EWKB high bit) decodes to the ISO geometry",
          arguments: try GDALWKBFixture.load().filter { $0.oldOGCLittleEndian != nil })
    func gdalOldOGC(_ f: GDALWKBFixture) throws {
        let old = try Geometry(wkb: try #require(f.oldOGCLittleEndian))
        #expect(old == (try Geometry(wkb: f.isoLittleEndian)))
    }

    @Test("Z, M and ZM round-trip in both byte orders with ISO type codes", arguments: dimensionSamples)
    func dimensions(_ g: Geometry) throws {
        for order in [WKBByteOrder.littleEndian, .bigEndian] {
            let bytes = g.wkb(byteOrder: order)
            #expect(try Geometry(wkb: bytes) == g)
            let type = order == .littleEndian ? UInt32(bytes[1]) | UInt32(bytes[2]) << 8 : UInt32(bytes[3]) << 8 | UInt32(bytes[4])
            let d = g.dimension
            #expect(type == g.type.rawValue + (d.hasZ ? 1000 : 0) + (d.hasM ? 2000 : 0))
        }
    }

    @Test func pointZMValues() throws {
        let g = try Geometry(wkb: bytes(hex: "01b90b0000000000000000f03f000000000000004000000000000008400000000000001040")!)
        #expect(g == .point(Point(x: 1, y: 2, z: 3, m: 4)))
        #expect(g.dimension == .xyzm)
    }

    @Test func emptyPointIsNaN() throws {
        let wkb = Geometry.point(Point(nil)).wkb()
        #expect(wkb.count == 21)
        let g = try Geometry(wkb: wkb)
        #expect(g == .point(Point(nil)))
        #expect(g.isEmpty)
    }

    @Test func ewkbFlagsAndSRID() throws {
        // EWKB POINT ZM with SRID 4326: type 0xE0000001, then the SRID, then x y z m.
        var b: [UInt8] = [1, 0x01, 0, 0, 0xE0, 0xE6, 0x10, 0, 0]
        for v in [1.0, 2.0, 3.0, 4.0] { withUnsafeBytes(of: v.bitPattern.littleEndian) { b += $0 } }
        #expect(try Geometry(wkb: b) == .point(Point(x: 1, y: 2, z: 3, m: 4)))
        // The same as EWKB POINT M: only the M bit (0x40000000).
        var m: [UInt8] = [1, 0x01, 0, 0, 0x40]
        for v in [1.0, 2.0, 4.0] { withUnsafeBytes(of: v.bitPattern.littleEndian) { m += $0 } }
        #expect(try Geometry(wkb: m) == .point(Point(x: 1, y: 2, m: 4)))
    }

    @Test("every geometry of the real layers survives big-endian WKB", arguments: LayerBlobs.all)
    func realDataBigEndian(_ layer: LayerBlobs) throws {
        let geometries = try layer.geometries()
        #expect(!geometries.isEmpty)
        for (fid, g) in geometries {
            let be = g.wkb(byteOrder: .bigEndian)
            #expect(be.first == 0)
            #expect(try Geometry(wkb: be) == g, "fid \(fid)")
        }
    }

    @Test func inPlaceDecodingAdvancesTheOffset() throws {
        let a = Geometry.point(Point(x: 1, y: 2)), b = Geometry.lineString(LineString([Coordinate(0, 0), Coordinate(3, 4)]))
        let both = a.wkb() + b.wkb(byteOrder: .bigEndian)
        let (first, middle, second, end) = try both.withUnsafeBytes { buffer throws -> (Geometry, Int, Geometry, Int) in
            var offset = 0
            let first = try Geometry.decodeWKB(buffer, at: &offset)
            let middle = offset
            return (first, middle, try Geometry.decodeWKB(buffer, at: &offset), offset)
        }
        #expect(first == a && middle == 21)
        #expect(second == b && end == both.count)
    }

    // MARK: Bad input

    static let lineString = Geometry.lineString(LineString([Coordinate(0, 0), Coordinate(1, 1), Coordinate(2, 0)])).wkb()

    @Test("every truncation of a valid WKB is an error, never a crash")
    func truncated() throws {
        for n in 0..<Self.lineString.count {
            let error = #expect(throws: GeometryError.self) { try Geometry(wkb: Array(Self.lineString.prefix(n))) }
            #expect(error?.kind == .malformedInput)
        }
        let error = #expect(throws: GeometryError.self) { try Geometry(wkb: Array(Self.lineString.prefix(20))) }
        #expect(error?.message.contains("truncated") == true)
    }

    @Test func badByteOrderFlag() throws {
        var b = Self.lineString
        b[0] = 7
        let error = #expect(throws: GeometryError.self) { try Geometry(wkb: b) }
        #expect(error?.message.contains("byte-order flag 7") == true)
    }

    @Test(arguments: [UInt32(0), 18, 99, 4001, 1_000_000])
    func unknownTypeCode(_ code: UInt32) throws {
        var b: [UInt8] = [1]
        withUnsafeBytes(of: code.littleEndian) { b += $0 }
        b += [UInt8](repeating: 0, count: 16)
        let error = #expect(throws: GeometryError.self) { try Geometry(wkb: b) }
        #expect(error?.kind == .malformedInput)
    }

    @Test func curveTypesAreUnsupported() throws {
        // CIRCULARSTRING (8) with no points.
        let error = #expect(throws: GeometryError.self) { try Geometry(wkb: [1, 8, 0, 0, 0, 0, 0, 0, 0]) }
        #expect(error?.kind == .unsupported)
    }

    @Test("a ring claiming 2^31 points fails at once, before allocating")
    func absurdCount() throws {
        // POLYGON with 1 ring of 0x80000000 points and 16 bytes of data.
        var b: [UInt8] = [1, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x80]
        b += [UInt8](repeating: 0, count: 16)
        let clock = ContinuousClock()
        var error: GeometryError?
        let elapsed = clock.measure { error = #expect(throws: GeometryError.self) { try Geometry(wkb: b) } }
        #expect(error?.message.contains("2147483648") == true)
        #expect(elapsed < .milliseconds(50))
        // The same for the members of a collection and for big-endian counts.
        let collection: [UInt8] = [0, 0, 0, 0, 7, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: GeometryError.self) { try Geometry(wkb: collection) }
    }

    @Test func deepNestingIsCapped() throws {
        // 100 GEOMETRYCOLLECTIONs, each holding the next.
        var b: [UInt8] = []
        for _ in 0..<100 { b += [1, 7, 0, 0, 0, 1, 0, 0, 0] }
        b += Geometry.point(Point(x: 1, y: 2)).wkb()
        let error = #expect(throws: GeometryError.self) { try Geometry(wkb: b) }
        #expect(error?.message.contains("nested") == true)
        // 20 levels are fine.
        var ok: [UInt8] = []
        for _ in 0..<20 { ok += [1, 7, 0, 0, 0, 1, 0, 0, 0] }
        ok += Geometry.point(Point(x: 1, y: 2)).wkb()
        #expect(throws: Never.self) { try Geometry(wkb: ok) }
    }

    @Test func wrongMemberType() throws {
        // MULTIPOLYGON holding a POINT.
        let b: [UInt8] = [1, 6, 0, 0, 0, 1, 0, 0, 0] + Geometry.point(Point(x: 1, y: 2)).wkb()
        let error = #expect(throws: GeometryError.self) { try Geometry(wkb: b) }
        #expect(error?.message.contains("MULTIPOLYGON may hold only POLYGONs") == true)
    }

    @Test func trailingBytes() throws {
        let error = #expect(throws: GeometryError.self) { try Geometry(wkb: Self.lineString + [0]) }
        #expect(error?.message.contains("left over") == true)
    }
}
