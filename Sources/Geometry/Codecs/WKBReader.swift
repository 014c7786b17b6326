/// Reads ISO and extended (PostGIS EWKB) well-known binary from memory it does not own or copy.
///
/// Every count is checked against the bytes that remain before anything is reserved, so a
/// count of 2^31 in a 20-byte input fails at once instead of allocating; collections nest at
/// most `maximumDepth` deep so hostile input cannot exhaust the stack.
struct WKBReader {
    /// Deeper nesting than any real data needs; bounds recursion on hostile input.
    static let maximumDepth = 32

    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    /// The header of one geometry: its byte order, type and ordinates.
    struct Header {
        var littleEndian: Bool
        var type: GeometryType
        var dimension: CoordinateDimension
    }

    // MARK: Geometry

    mutating func readGeometry(depth: Int = 0) throws -> Geometry {
        let header = try readHeader(depth: depth)
        return try readBody(header, depth: depth)
    }

    private mutating func readBody(_ h: Header, depth: Int) throws -> Geometry {
        let le = h.littleEndian
        switch h.type {
        case .point:
            return .point(try readPointBody(h))
        case .lineString:
            return .lineString(LineString(try readCoordinates(le, h.dimension)))
        case .polygon:
            return .polygon(try readPolygonBody(h))
        case .multiPoint:
            let n = try readCount(le, minimumBytesEach: 5 + 16, what: "points of a MULTIPOINT")
            var points: [Point] = []
            points.reserveCapacity(n)
            for _ in 0..<n {
                let child = try readHeader(depth: depth + 1, expecting: .point, in: .multiPoint)
                points.append(try readPointBody(child))
            }
            return .multiPoint(MultiPoint(points))
        case .multiLineString:
            let n = try readCount(le, minimumBytesEach: 9, what: "line strings of a MULTILINESTRING")
            var lines: [LineString] = []
            lines.reserveCapacity(n)
            for _ in 0..<n {
                let child = try readHeader(depth: depth + 1, expecting: .lineString, in: .multiLineString)
                lines.append(LineString(try readCoordinates(child.littleEndian, child.dimension)))
            }
            return .multiLineString(MultiLineString(lines))
        case .multiPolygon:
            let n = try readCount(le, minimumBytesEach: 9, what: "polygons of a MULTIPOLYGON")
            var polygons: [Polygon] = []
            polygons.reserveCapacity(n)
            for _ in 0..<n {
                let child = try readHeader(depth: depth + 1, expecting: .polygon, in: .multiPolygon)
                polygons.append(try readPolygonBody(child))
            }
            return .multiPolygon(MultiPolygon(polygons))
        case .geometryCollection:
            let n = try readCount(le, minimumBytesEach: 9, what: "members of a GEOMETRYCOLLECTION")
            var members: [Geometry] = []
            members.reserveCapacity(n)
            for _ in 0..<n { members.append(try readGeometry(depth: depth + 1)) }
            return .geometryCollection(GeometryCollection(members))
        case .geometry:
            throw GeometryError(.malformedInput, "WKB: geometry type code 0 (GEOMETRY) at byte \(offset - 4) is not a concrete type")
        }
    }

    private mutating func readPointBody(_ h: Header) throws -> Point {
        let c = try readCoordinate(h.littleEndian, h.dimension)
        // WKB has no empty point; everyone (GEOS, GDAL, the GeoPackage spec) writes NaN x and y.
        return Point(c.x.isNaN && c.y.isNaN ? nil : c)
    }

    private mutating func readPolygonBody(_ h: Header) throws -> Polygon {
        let n = try readCount(h.littleEndian, minimumBytesEach: 4, what: "rings of a POLYGON")
        var rings: [[Coordinate]] = []
        rings.reserveCapacity(n)
        for _ in 0..<n { rings.append(try readCoordinates(h.littleEndian, h.dimension)) }
        return Polygon(rings)
    }

    // MARK: Headers

    mutating func readHeader(depth: Int, expecting expected: GeometryType? = nil,
                             in parent: GeometryType? = nil) throws -> Header {
        if depth > Self.maximumDepth {
            throw GeometryError(.malformedInput, "WKB: collections nested more than \(Self.maximumDepth) deep at byte \(offset)")
        }
        let le = try readByteOrder()
        let start = offset
        let raw = try readUInt32(le)
        // EWKB (PostGIS, older GDAL) flags ordinates and an embedded SRID in the high bits.
        var hasZ = raw & 0x8000_0000 != 0
        var hasM = raw & 0x4000_0000 != 0
        let hasSRID = raw & 0x2000_0000 != 0
        let code = raw & 0x0FFF_FFFF
        switch code / 1000 {
        case 0: break
        case 1: hasZ = true
        case 2: hasM = true
        case 3: hasZ = true; hasM = true
        default:
            throw GeometryError(.malformedInput, "WKB: unknown geometry type code \(raw) at byte \(start)")
        }
        let base = code % 1000
        guard let type = GeometryType(rawValue: base), base != 0 else {
            if (8...17).contains(base) {
                throw GeometryError(.unsupported, "WKB: curved and surface geometry types (code \(raw) at byte \(start)) are not supported")
            }
            throw GeometryError(.malformedInput, "WKB: unknown geometry type code \(raw) at byte \(start)")
        }
        if let expected, type != expected, let parent {
            throw GeometryError(.malformedInput, "WKB: a \(parent.name) may hold only \(expected.name)s, found \(type.name) at byte \(start)")
        }
        if hasSRID { _ = try readUInt32(le) }
        return Header(littleEndian: le, type: type, dimension: CoordinateDimension(hasZ: hasZ, hasM: hasM))
    }

    private mutating func readByteOrder() throws -> Bool {
        guard offset < bytes.count else {
            throw GeometryError(.malformedInput, "WKB: truncated: expected a byte-order flag at byte \(offset), the input has \(bytes.count) bytes")
        }
        let flag = bytes[offset]
        guard flag <= 1 else {
            throw GeometryError(.malformedInput, "WKB: bad byte-order flag \(flag) at byte \(offset) (must be 0 or 1)")
        }
        offset += 1
        return flag == 1
    }

    // MARK: Numbers

    private func truncated(_ need: Int, _ what: String) -> GeometryError {
        GeometryError(.malformedInput, "WKB: truncated: \(what) at byte \(offset) needs \(need) bytes, \(max(0, remaining)) remain")
    }

    mutating func readUInt32(_ le: Bool) throws -> UInt32 {
        guard remaining >= 4 else { throw truncated(4, "a 32-bit integer") }
        let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return le ? UInt32(littleEndian: v) : UInt32(bigEndian: v)
    }

    @inline(__always)
    private mutating func readDoubleUnchecked(_ le: Bool) -> Double {
        let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return Double(bitPattern: le ? UInt64(littleEndian: v) : UInt64(bigEndian: v))
    }

    /// Reads a count and checks that `count * minimumBytesEach` bytes can still follow.
    private mutating func readCount(_ le: Bool, minimumBytesEach: Int, what: String) throws -> Int {
        let at = offset
        let n = Int(try readUInt32(le))
        guard n <= remaining / minimumBytesEach else {
            throw GeometryError(.malformedInput, "WKB: truncated or corrupt: a count of \(n) \(what) at byte \(at) cannot fit in the \(remaining) bytes that remain")
        }
        return n
    }

    private mutating func readCoordinate(_ le: Bool, _ d: CoordinateDimension) throws -> Coordinate {
        let size = d.ordinateCount * 8
        guard remaining >= size else { throw truncated(size, "a coordinate") }
        return readCoordinateUnchecked(le, d)
    }

    @inline(__always)
    private mutating func readCoordinateUnchecked(_ le: Bool, _ d: CoordinateDimension) -> Coordinate {
        let x = readDoubleUnchecked(le), y = readDoubleUnchecked(le)
        let z = d.hasZ ? readDoubleUnchecked(le) : nil
        let m = d.hasM ? readDoubleUnchecked(le) : nil
        return Coordinate(x: x, y: y, z: z, m: m)
    }

    private mutating func readCoordinates(_ le: Bool, _ d: CoordinateDimension) throws -> [Coordinate] {
        let size = d.ordinateCount * 8
        let n = try readCount(le, minimumBytesEach: size, what: "coordinates")
        var out: [Coordinate] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(readCoordinateUnchecked(le, d)) }
        return out
    }

    // MARK: Envelope without building the geometry

    /// Walks one geometry and widens `envelope` by its coordinates, skipping NaN ones
    /// (empty points). Nothing is allocated.
    mutating func scanEnvelope(into envelope: inout Envelope?, depth: Int = 0, in parent: GeometryType? = nil) throws {
        let h = try readHeader(depth: depth, expecting: parent?.memberType, in: parent)
        let le = h.littleEndian
        switch h.type {
        case .point:
            let c = try readCoordinate(le, h.dimension)
            Self.widen(&envelope, c.x, c.y)
        case .lineString:
            try scanCoordinates(le, h.dimension, into: &envelope)
        case .polygon:
            let rings = try readCount(le, minimumBytesEach: 4, what: "rings of a POLYGON")
            for _ in 0..<rings { try scanCoordinates(le, h.dimension, into: &envelope) }
        case .multiPoint, .multiLineString, .multiPolygon, .geometryCollection:
            let n = try readCount(le, minimumBytesEach: 9, what: "members of a \(h.type.name)")
            for _ in 0..<n { try scanEnvelope(into: &envelope, depth: depth + 1, in: h.type) }
        case .geometry:
            throw GeometryError(.malformedInput, "WKB: geometry type code 0 (GEOMETRY) is not a concrete type")
        }
    }

    private mutating func scanCoordinates(_ le: Bool, _ d: CoordinateDimension, into envelope: inout Envelope?) throws {
        let size = d.ordinateCount * 8
        let n = try readCount(le, minimumBytesEach: size, what: "coordinates")
        let skip = size - 16
        for _ in 0..<n {
            let x = readDoubleUnchecked(le), y = readDoubleUnchecked(le)
            offset += skip
            Self.widen(&envelope, x, y)
        }
    }

    @inline(__always)
    private static func widen(_ envelope: inout Envelope?, _ x: Double, _ y: Double) {
        if x.isNaN || y.isNaN { return }
        if envelope == nil {
            envelope = Envelope(minX: x, minY: y, maxX: x, maxY: y)
        } else {
            envelope!.expand(toInclude: x, y)
        }
    }
}

extension GeometryType {
    /// The one type a multi-geometry may hold; nil for collections and single geometries.
    var memberType: GeometryType? {
        switch self {
        case .multiPoint: return .point
        case .multiLineString: return .lineString
        case .multiPolygon: return .polygon
        default: return nil
        }
    }
}

extension CoordinateDimension {
    /// 2, 3 or 4: how many doubles one coordinate takes in WKB.
    var ordinateCount: Int { 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0) }
}
