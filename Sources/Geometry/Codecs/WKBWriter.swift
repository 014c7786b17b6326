/// Writes ISO well-known binary (Z, M, ZM as type codes + 1000, 2000, 3000) into one
/// buffer sized up front, so encoding a geometry allocates once.
struct WKBWriter {
    let byteOrder: WKBByteOrder

    /// The encoding of `geometry`; every member takes the ordinates of the whole geometry,
    /// as ISO WKB requires of a collection.
    func encode(_ geometry: Geometry) -> [UInt8] {
        let dimension = geometry.dimension
        let size = Self.size(of: geometry, dimension.ordinateCount * 8)
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var cursor = Cursor(base: UnsafeMutableRawPointer(buffer.baseAddress!),
                                littleEndian: byteOrder == .littleEndian)
            write(geometry, dimension, &cursor)
            count = size
        }
    }

    // MARK: Size

    private static func size(of g: Geometry, _ coordinateSize: Int) -> Int {
        switch g {
        case .point: return 5 + coordinateSize
        case .lineString(let l): return 9 + l.coordinates.count * coordinateSize
        case .polygon(let p): return polygonSize(p, coordinateSize)
        case .multiPoint(let m): return 9 + m.points.count * (5 + coordinateSize)
        case .multiLineString(let m):
            return m.lineStrings.reduce(9) { $0 + 9 + $1.coordinates.count * coordinateSize }
        case .multiPolygon(let m): return m.polygons.reduce(9) { $0 + polygonSize($1, coordinateSize) }
        case .geometryCollection(let c): return c.geometries.reduce(9) { $0 + size(of: $1, coordinateSize) }
        }
    }

    private static func polygonSize(_ p: Polygon, _ coordinateSize: Int) -> Int {
        p.rings.reduce(9) { $0 + 4 + $1.count * coordinateSize }
    }

    // MARK: Writing

    struct Cursor {
        var base: UnsafeMutableRawPointer
        var offset = 0
        let littleEndian: Bool

        init(base: UnsafeMutableRawPointer, littleEndian: Bool) {
            self.base = base
            self.littleEndian = littleEndian
        }

        @inline(__always) mutating func byte(_ v: UInt8) {
            base.storeBytes(of: v, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }

        @inline(__always) mutating func uint32(_ v: UInt32) {
            base.storeBytes(of: littleEndian ? v.littleEndian : v.bigEndian, toByteOffset: offset, as: UInt32.self)
            offset += 4
        }

        @inline(__always) mutating func double(_ v: Double) {
            let bits = v.bitPattern
            base.storeBytes(of: littleEndian ? bits.littleEndian : bits.bigEndian, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
    }

    private func header(_ type: GeometryType, _ d: CoordinateDimension, _ c: inout Cursor) {
        c.byte(byteOrder.flag)
        c.uint32(type.rawValue + (d.hasZ ? 1000 : 0) + (d.hasM ? 2000 : 0))
    }

    private func write(_ g: Geometry, _ d: CoordinateDimension, _ c: inout Cursor) {
        switch g {
        case .point(let p): writePoint(p, d, &c)
        case .lineString(let l):
            header(.lineString, d, &c)
            writeCoordinates(l.coordinates, d, &c)
        case .polygon(let p): writePolygon(p, d, &c)
        case .multiPoint(let m):
            header(.multiPoint, d, &c)
            c.uint32(UInt32(m.points.count))
            for p in m.points { writePoint(p, d, &c) }
        case .multiLineString(let m):
            header(.multiLineString, d, &c)
            c.uint32(UInt32(m.lineStrings.count))
            for l in m.lineStrings {
                header(.lineString, d, &c)
                writeCoordinates(l.coordinates, d, &c)
            }
        case .multiPolygon(let m):
            header(.multiPolygon, d, &c)
            c.uint32(UInt32(m.polygons.count))
            for p in m.polygons { writePolygon(p, d, &c) }
        case .geometryCollection(let gc):
            header(.geometryCollection, d, &c)
            c.uint32(UInt32(gc.geometries.count))
            for member in gc.geometries { write(member, d, &c) }
        }
    }

    private func writePoint(_ p: Point, _ d: CoordinateDimension, _ c: inout Cursor) {
        header(.point, d, &c)
        // The empty point is all NaN, the convention of GEOS, GDAL and the GeoPackage spec.
        writeCoordinate(p.coordinate ?? Coordinate(x: .nan, y: .nan), d, &c)
    }

    private func writePolygon(_ p: Polygon, _ d: CoordinateDimension, _ c: inout Cursor) {
        header(.polygon, d, &c)
        c.uint32(UInt32(p.rings.count))
        for ring in p.rings { writeCoordinates(ring, d, &c) }
    }

    private func writeCoordinates(_ coordinates: [Coordinate], _ d: CoordinateDimension, _ c: inout Cursor) {
        c.uint32(UInt32(coordinates.count))
        for coordinate in coordinates { writeCoordinate(coordinate, d, &c) }
    }

    @inline(__always)
    private func writeCoordinate(_ coordinate: Coordinate, _ d: CoordinateDimension, _ c: inout Cursor) {
        c.double(coordinate.x)
        c.double(coordinate.y)
        // A coordinate lacking an ordinate its geometry carries gets NaN, "no value" in WKB.
        if d.hasZ { c.double(coordinate.z ?? .nan) }
        if d.hasM { c.double(coordinate.m ?? .nan) }
    }
}
