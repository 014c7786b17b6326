import Foundation

/// The area a user asks for: a box, a WKT polygon, or the union of the polygons of a
/// GeoJSON file, in a CRS of their choice (EPSG:4326 unless told), checked and made valid.
///
/// `create`, `estimate` and `tiles` all start here, so an area means the same to all of them.
public struct AreaOfInterest: Sendable {
    /// What the user wrote (the box, the WKT, or `@path`), for manifests and messages.
    public let text: String
    /// The CRS definition the area is in, as given (`EPSG:4326`).
    public let crs: String
    /// The area in `crs`: a valid Polygon or MultiPolygon.
    public let geometry: Geometry
    /// For a box: the box, or for one crossing the antimeridian (west > east, EPSG:4326) its
    /// two halves, west to east of the line; nil for polygons.
    public let boxes: [Envelope]?
    /// What was wrong with each polygon given that had to be made valid (GEOS's reason and
    /// place, `Self-intersection at (5, 5)`); empty when the area was valid as given.
    public let repairs: [String]

    /// Whether the area is in EPSG:4326 (x = longitude), where boxes need no transform.
    public var isLonLat: Bool { AreaOfInterest.isLonLat(crs) }

    /// Parses `minx,miny,maxx,maxy`, WKT, or `@file.geojson`.
    /// - Parameters:
    ///   - text: the area as the user wrote it.
    ///   - crs: the CRS the coordinates are in.
    ///   - context: GEOS, to check validity, repair, and union.
    /// - Throws: `GeometryError(.malformedInput / .invalidGeometry)` naming the input and
    ///   what is wrong: unreadable text or file, not polygonal, empty, a box of no size.
    public init(parsing text: String, crs: String = "EPSG:4326", context: GEOSContext) throws {
        self.text = text
        self.crs = crs
        var repairs: [String] = []
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("@") {
            let path = String(trimmed.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw GeometryError(.malformedInput, "area file \(path): cannot be read")
            }
            let parts: [Geometry]
            do { parts = try GeoJSON.geometries(in: data) } catch let e as GeometryError {
                throw GeometryError(e.kind, "area file \(path): \(e.message)")
            }
            geometry = try AreaOfInterest.polygonal(parts, named: "area file \(path)", context: context, repairs: &repairs)
            boxes = nil
        } else if let numbers = AreaOfInterest.boxNumbers(trimmed) {
            let boxes = try AreaOfInterest.boxes(numbers, crs: crs, text: trimmed)
            self.boxes = boxes
            let polygons = boxes.map { AreaOfInterest.boxPolygon($0, lonLat: AreaOfInterest.isLonLat(crs)) }
            geometry = polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(MultiPolygon(polygons))
        } else {
            let parsed: Geometry
            do { parsed = try Geometry(wkt: trimmed) } catch let e as GeometryError {
                throw GeometryError(e.kind, "area \(AreaOfInterest.abbreviated(trimmed)): not a box (minx,miny,maxx,maxy), WKT, nor @file.geojson: \(e.message)")
            }
            geometry = try AreaOfInterest.polygonal([parsed], named: "area \(AreaOfInterest.abbreviated(trimmed))", context: context,
                                                    repairs: &repairs)
            boxes = nil
        }
        self.repairs = repairs
    }

    /// A warning saying what was repaired and what the area became, or nil when it was valid.
    public var repairWarning: String? {
        guard !repairs.isEmpty else { return nil }
        let wkt = geometry.wkt
        let shown = wkt.count > 200 ? String(wkt.prefix(197)) + "..." : wkt
        return "area \(AreaOfInterest.abbreviated(text)) is not a valid polygon (\(repairs.joined(separator: "; "))); "
            + "it was repaired and is taken as \(geometry.summary) in \(crs): \(shown)"
    }

    /// A box as a polygon. A box in degrees wider than half the world gets a vertex in the
    /// middle of its north and south edges: an edge longer than 180 degrees of longitude is
    /// read by every antimeridian-aware reader (ours in TileCoverage, GeoJSON's rules) as
    /// crossing the line the short way, which would make the box a strip round the back.
    static func boxPolygon(_ box: Envelope, lonLat: Bool) -> Polygon {
        guard lonLat, box.maxX - box.minX > 180 else { return box.polygon }
        let middle = (box.minX + box.maxX) / 2
        return Polygon(exterior: [
            Coordinate(box.minX, box.minY), Coordinate(middle, box.minY), Coordinate(box.maxX, box.minY),
            Coordinate(box.maxX, box.maxY), Coordinate(middle, box.maxY), Coordinate(box.minX, box.maxY),
            Coordinate(box.minX, box.minY),
        ])
    }

    /// The area's bounding box in its own CRS; for an antimeridian box, west > east.
    public var envelope: Envelope {
        if let boxes, boxes.count == 2 {
            return Envelope(minX: boxes[0].minX, minY: boxes[0].minY, maxX: boxes[1].maxX, maxY: boxes[0].maxY)
        }
        return geometry.envelope ?? Envelope(minX: 0, minY: 0, maxX: 0, maxY: 0)
    }

    /// The area in EPSG:4326 (x = longitude), its edges densified in its own CRS first so
    /// that they stay where the user drew them: straight lines in `crs`.
    /// - Parameter segments: pieces each edge of the bounding box's size is cut into.
    /// - Throws: `GeometryError` from PROJ (unknown CRS, coordinates it cannot transform).
    public func lonLatGeometry(context: PROJContext, segments: Double = 100) throws -> Geometry {
        if isLonLat { return geometry }
        return try densifiedTransform(from: CoordinateReferenceSystem(crs, context: context),
                                      to: CoordinateReferenceSystem("EPSG:4326", context: context),
                                      envelope: envelope, proj: context, segments: segments)
    }

    /// The geometry with its edges cut into pieces of the `envelope`'s larger side over
    /// `segments`, then transformed: straight edges in `source` become the curves they are
    /// in `target`.
    func densifiedTransform(from source: CoordinateReferenceSystem, to target: CoordinateReferenceSystem,
                            envelope e: Envelope, proj: PROJContext, segments: Double) throws -> Geometry {
        let step = max(e.width, e.height) / segments
        let dense = step > 0 ? geometry.densified(maxSegmentLength: step) : geometry
        return try Transformer(from: source, to: target, context: proj).transform(dense)
    }

    static func isLonLat(_ crs: String) -> Bool {
        let c = crs.uppercased().replacingOccurrences(of: " ", with: "")
        return c == "EPSG:4326" || c == "OGC:CRS84" || c == "CRS84"
    }

    static func boxNumbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return numbers.count == 4 ? numbers : nil
    }

    static func boxes(_ n: [Double], crs: String, text: String) throws -> [Envelope] {
        let (minX, minY, maxX, maxY) = (n[0], n[1], n[2], n[3])
        guard n.allSatisfy(\.isFinite) else { throw GeometryError(.malformedInput, "area \(text): numbers must be finite") }
        guard minY < maxY else {
            throw GeometryError(.invalidGeometry, "area \(text): miny (\(minY)) must be less than maxy (\(maxY))")
        }
        guard minX != maxX else { throw GeometryError(.invalidGeometry, "area \(text): the box has no width") }
        if isLonLat(crs) {
            guard [minX, maxX].allSatisfy({ (-180...180).contains($0) }), [minY, maxY].allSatisfy({ (-90...90).contains($0) }) else {
                throw GeometryError(.invalidGeometry, "area \(text): longitudes must lie in -180...180 and latitudes in -90...90 (\(crs) is x = longitude, y = latitude)")
            }
            if minX > maxX {
                // West > east: the box crosses the antimeridian.
                return [Envelope(minX: minX, minY: minY, maxX: 180, maxY: maxY),
                        Envelope(minX: -180, minY: minY, maxX: maxX, maxY: maxY)]
            }
        } else if minX > maxX {
            throw GeometryError(.invalidGeometry, "area \(text): minx is greater than maxx (only an EPSG:4326 box may cross the antimeridian)")
        }
        return [Envelope(minX: minX, minY: minY, maxX: maxX, maxY: maxY)]
    }

    /// The union of the polygonal parts, made valid; anything else is an error.
    static func polygonal(_ parts: [Geometry], named name: String, context: GEOSContext) throws -> Geometry {
        var repairs: [String] = []
        return try polygonal(parts, named: name, context: context, repairs: &repairs)
    }

    /// The same, telling in `repairs` why each polygon that had to be made valid was not.
    static func polygonal(_ parts: [Geometry], named name: String, context: GEOSContext,
                          repairs: inout [String]) throws -> Geometry {
        var polygons: [Polygon] = []
        func collect(_ g: Geometry) throws {
            switch g {
            case .polygon(let p): if !p.isEmpty { polygons.append(p) }
            case .multiPolygon(let m): polygons += m.polygons.filter { !$0.isEmpty }
            case .geometryCollection(let c): try c.geometries.forEach(collect)
            default:
                if !g.isEmpty { throw GeometryError(.invalidGeometry, "\(name): a \(g.type.name) has no area; give polygons") }
            }
        }
        try parts.forEach(collect)
        guard !polygons.isEmpty else { throw GeometryError(.invalidGeometry, "\(name): empty, no polygon to take") }
        try checkRings(polygons, named: name)
        var valid: [Geometry] = []
        for p in polygons {
            let g = Geometry.polygon(p)
            let validity = try context.validity(g)
            if !validity.isValid { repairs.append(validity.reason ?? "invalid polygon") }
            valid.append(validity.isValid ? g : try context.makeValid(g))
        }
        let union = valid.count == 1 ? valid[0] : try context.unaryUnion(valid)
        let kept = union.polygonParts
        guard !kept.isEmpty else { throw GeometryError(.invalidGeometry, "\(name): has no area once made valid") }
        return kept.count == 1 ? .polygon(kept[0]) : .multiPolygon(MultiPolygon(kept))
    }

    /// The text cut to 60 characters, for messages.
    public static func abbreviated(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}
