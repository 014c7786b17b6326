import CGEOS

// Geometry values <-> GEOS geometries, through GEOS coordinate sequences filled from and
// copied to flat buffers of doubles (GEOSCoordSeq_copyFromBuffer_r / copyToBuffer_r).
//
// GEOS 3.11 stores XY or XYZ only: M is not carried into GEOS. Operations that build new
// geometries give M back where they can (see Geometry+MeasureRestoration.swift).

extension GEOSContext {
    /// A GEOS copy of `geometry`.
    /// - Throws: `GeometryError(.invalidGeometry)` when GEOS refuses the shape (a ring with
    ///   fewer than 4 points or not closed, a line with one point), naming the part.
    func object(_ geometry: Geometry) throws -> GEOSObject {
        GEOSObject(context: self, owning: try create(geometry, hasZ: geometry.dimension.hasZ))
    }

    /// The value of a GEOS geometry.
    func value(_ object: GEOSObject) throws -> Geometry {
        try withExtendedLifetime(object) { try value(of: object.pointer) }
    }

    // MARK: Geometry -> GEOS (every function returns a geometry the caller owns)

    private func create(_ geometry: Geometry, hasZ: Bool) throws -> OpaquePointer {
        switch geometry {
        case .point(let p):
            return try point(p, hasZ: hasZ)
        case .lineString(let l):
            return try lineString(l.coordinates, hasZ: hasZ, label: "line string")
        case .polygon(let p):
            return try polygon(p, hasZ: hasZ, label: "polygon")
        case .multiPoint(let m):
            return try collection(Int32(GEOS_MULTIPOINT.rawValue), m.points.map { p in
                { try self.point(p, hasZ: hasZ) }
            })
        case .multiLineString(let m):
            return try collection(Int32(GEOS_MULTILINESTRING.rawValue), m.lineStrings.enumerated().map { i, l in
                { try self.lineString(l.coordinates, hasZ: hasZ, label: "line string \(i) of the multi line string") }
            })
        case .multiPolygon(let m):
            return try collection(Int32(GEOS_MULTIPOLYGON.rawValue), m.polygons.enumerated().map { i, p in
                { try self.polygon(p, hasZ: hasZ, label: "polygon \(i) of the multi polygon") }
            })
        case .geometryCollection(let c):
            return try collection(Int32(GEOS_GEOMETRYCOLLECTION.rawValue), c.geometries.map { g in
                { try self.create(g, hasZ: hasZ) }
            })
        }
    }

    private func sequence(_ coordinates: [Coordinate], hasZ: Bool, label: String) throws -> OpaquePointer {
        guard coordinates.count <= Int(UInt32.max) else {
            throw GeometryError(.invalidGeometry, "\(label) has \(coordinates.count) points, more than GEOS can hold")
        }
        let stride = hasZ ? 3 : 2
        let buffer = [Double](unsafeUninitializedCapacity: coordinates.count * stride) { buffer, count in
            var i = 0
            for c in coordinates {
                buffer[i] = c.x
                buffer[i + 1] = c.y
                if hasZ { buffer[i + 2] = c.z ?? .nan }
                i += stride
            }
            count = i
        }
        resetMessage()
        // Copies the buffer; returns NULL on exception.
        guard let seq = GEOSCoordSeq_copyFromBuffer_r(handle, buffer, UInt32(coordinates.count), hasZ ? 1 : 0, 0) else {
            throw failure("copying the coordinates of \(label)")
        }
        return seq
    }

    private func point(_ point: Point, hasZ: Bool) throws -> OpaquePointer {
        resetMessage()
        guard let c = point.coordinate else {
            guard let empty = GEOSGeom_createEmptyPoint_r(handle) else { throw failure("creating an empty point") }
            return empty
        }
        let seq = try sequence([c], hasZ: hasZ, label: "point")
        // Takes ownership of seq, also when it fails; returns NULL on exception.
        guard let g = GEOSGeom_createPoint_r(handle, seq) else {
            throw failure("creating a point", kind: .invalidGeometry)
        }
        return g
    }

    private func lineString(_ coordinates: [Coordinate], hasZ: Bool, label: String) throws -> OpaquePointer {
        let seq = try sequence(coordinates, hasZ: hasZ, label: label)
        resetMessage()
        // Takes ownership of seq, also when it fails; returns NULL on exception
        // ("point array must contain 0 or >1 elements").
        guard let g = GEOSGeom_createLineString_r(handle, seq) else {
            throw failure("creating \(label)", kind: .invalidGeometry)
        }
        return g
    }

    private func ring(_ coordinates: [Coordinate], hasZ: Bool, label: String) throws -> OpaquePointer {
        let seq = try sequence(coordinates, hasZ: hasZ, label: label)
        resetMessage()
        // Takes ownership of seq, also when it fails; returns NULL on exception (fewer than
        // 4 points, or not closed).
        guard let g = GEOSGeom_createLinearRing_r(handle, seq) else {
            throw failure("creating \(label)", kind: .invalidGeometry)
        }
        return g
    }

    private func polygon(_ polygon: Polygon, hasZ: Bool, label: String) throws -> OpaquePointer {
        if polygon.rings.isEmpty {
            resetMessage()
            guard let empty = GEOSGeom_createEmptyPolygon_r(handle) else { throw failure("creating an empty polygon") }
            return empty
        }
        let shell = try ring(polygon.rings[0], hasZ: hasZ, label: "the exterior ring of \(label)")
        var holes: [OpaquePointer?] = []
        holes.reserveCapacity(polygon.rings.count - 1)
        do {
            for (i, r) in polygon.rings.dropFirst().enumerated() {
                holes.append(try ring(r, hasZ: hasZ, label: "interior ring \(i) of \(label)"))
            }
        } catch {
            GEOSGeom_destroy_r(handle, shell)
            for h in holes { GEOSGeom_destroy_r(handle, h) }
            throw error
        }
        resetMessage()
        // Takes ownership of the shell and the holes (the array itself stays ours), also when
        // it fails; returns NULL on exception.
        let g = holes.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createPolygon_r(handle, shell, buffer.baseAddress, UInt32(buffer.count))
        }
        guard let g else { throw failure("creating \(label)", kind: .invalidGeometry) }
        return g
    }

    private func collection(_ type: Int32, _ makers: [() throws -> OpaquePointer]) throws -> OpaquePointer {
        var parts: [OpaquePointer?] = []
        parts.reserveCapacity(makers.count)
        do {
            for make in makers { parts.append(try make()) }
        } catch {
            for p in parts { GEOSGeom_destroy_r(handle, p) }
            throw error
        }
        resetMessage()
        // Takes ownership of the parts (not of the array), also when it fails; returns NULL
        // on exception (a part of the wrong type for the collection).
        let g = parts.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createCollection_r(handle, type, buffer.baseAddress, UInt32(buffer.count))
        }
        guard let g else { throw failure("creating a collection", kind: .invalidGeometry) }
        return g
    }

    // MARK: GEOS -> Geometry (pointers are borrowed; the caller keeps their owner alive)

    private func value(of g: OpaquePointer) throws -> Geometry {
        resetMessage()
        let type = GEOSGeomTypeId_r(handle, g)  // returns -1 on exception
        switch type {
        case Int32(GEOS_POINT.rawValue):
            return .point(try pointValue(g))
        case Int32(GEOS_LINESTRING.rawValue), Int32(GEOS_LINEARRING.rawValue):
            return .lineString(LineString(try coordinates(of: g)))
        case Int32(GEOS_POLYGON.rawValue):
            return .polygon(try polygonValue(g))
        case Int32(GEOS_MULTIPOINT.rawValue):
            return .multiPoint(MultiPoint(try parts(of: g).map(pointValue)))
        case Int32(GEOS_MULTILINESTRING.rawValue):
            return .multiLineString(MultiLineString(try parts(of: g).map { LineString(try coordinates(of: $0)) }))
        case Int32(GEOS_MULTIPOLYGON.rawValue):
            return .multiPolygon(MultiPolygon(try parts(of: g).map(polygonValue)))
        case Int32(GEOS_GEOMETRYCOLLECTION.rawValue):
            return .geometryCollection(GeometryCollection(try parts(of: g).map(value(of:))))
        default:
            throw failure("reading the geometry type (\(type))")
        }
    }

    private func parts(of g: OpaquePointer) throws -> [OpaquePointer] {
        resetMessage()
        let count = GEOSGetNumGeometries_r(handle, g)  // returns -1 on exception
        guard count >= 0 else { throw failure("counting the parts of a collection") }
        return try (0..<count).map { i in
            guard let part = GEOSGetGeometryN_r(handle, g, i) else { throw failure("reading part \(i)") }  // NULL on exception
            return part
        }
    }

    private func pointValue(_ g: OpaquePointer) throws -> Point {
        let c = try coordinates(of: g)
        return Point(c.first)
    }

    private func polygonValue(_ g: OpaquePointer) throws -> Polygon {
        resetMessage()
        let empty = GEOSisEmpty_r(handle, g)  // returns 2 on exception
        guard empty != 2 else { throw failure("testing a polygon for emptiness") }
        if empty == 1 { return Polygon([]) }
        // Rings are owned by the polygon; these pointers are borrowed.
        guard let shell = GEOSGetExteriorRing_r(handle, g) else { throw failure("reading an exterior ring") }
        var rings = [try coordinates(of: shell)]
        let holeCount = GEOSGetNumInteriorRings_r(handle, g)  // returns -1 on exception
        guard holeCount >= 0 else { throw failure("counting interior rings") }
        for i in 0..<holeCount {
            guard let hole = GEOSGetInteriorRingN_r(handle, g, i) else { throw failure("reading interior ring \(i)") }
            rings.append(try coordinates(of: hole))
        }
        return Polygon(rings)
    }

    /// The coordinates of a point, line string or linear ring.
    private func coordinates(of g: OpaquePointer) throws -> [Coordinate] {
        resetMessage()
        let hasZFlag = GEOSHasZ_r(handle, g)  // returns 2 on exception
        guard hasZFlag != 2 else { throw failure("reading the dimension") }
        let hasZ = hasZFlag == 1
        // Borrowed: the sequence belongs to the geometry. NULL on exception.
        guard let seq = GEOSGeom_getCoordSeq_r(handle, g) else { throw failure("reading a coordinate sequence") }
        var size: UInt32 = 0
        guard GEOSCoordSeq_getSize_r(handle, seq, &size) != 0 else { throw failure("reading a sequence size") }  // 0 on exception
        if size == 0 { return [] }
        let stride = hasZ ? 3 : 2
        var buffer = [Double](repeating: 0, count: Int(size) * stride)
        let copied = buffer.withUnsafeMutableBufferPointer { b in
            GEOSCoordSeq_copyToBuffer_r(handle, seq, b.baseAddress, hasZ ? 1 : 0, 0)  // 0 on exception
        }
        guard copied != 0 else { throw failure("copying coordinates out") }
        var result: [Coordinate] = []
        result.reserveCapacity(Int(size))
        var i = 0
        while i < buffer.count {
            result.append(Coordinate(x: buffer[i], y: buffer[i + 1], z: hasZ ? buffer[i + 2] : nil))
            i += stride
        }
        return result
    }
}
