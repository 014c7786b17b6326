import Foundation
import Geometry

/// The area of interest as the extraction uses it: a valid polygonal geometry in EPSG:4326,
/// with the text it was given as.
struct ExtractArea: Sendable {
    /// In `crs` when parsed; in EPSG:4326 once prepared (with `original` keeping the given one).
    var geometry: Geometry
    var given: String
    var crs: String
    var original: Geometry? = nil

    /// Parses `minx,miny,maxx,maxy` or WKT and makes it valid.
    /// - Throws: `ExtractError` (`.area`) naming the area when it is empty, not polygonal or
    ///   cannot be read.
    static func parse(_ text: String, crs: String?, context: GEOSContext) throws -> ExtractArea {
        let crs = crs ?? "EPSG:4326"
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ExtractError(.area, "--area is empty") }
        var geometry: Geometry
        let numbers = trimmed.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        if numbers.count == 4, numbers.allSatisfy({ $0 != nil }) {
            let v = numbers.compactMap { $0 }
            guard v.allSatisfy(\.isFinite), v[0] < v[2], v[1] < v[3] else {
                throw ExtractError(.area, "--area \(trimmed): a bounding box needs minx < maxx and miny < maxy")
            }
            geometry = .polygon(Envelope(minX: v[0], minY: v[1], maxX: v[2], maxY: v[3]).polygon)
        } else if trimmed.hasPrefix("@") {
            let path = String(trimmed.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ExtractError(.area, "--area \(trimmed): cannot read \(path)")
            }
            let parts: [Geometry]
            do { parts = try GeoJSON.geometries(in: data) } catch {
                throw ExtractError(.area, "--area \(trimmed): not GeoJSON (\(error))")
            }
            guard !parts.isEmpty else { throw ExtractError(.area, "--area \(trimmed): the file holds no geometry") }
            geometry = parts.count == 1 ? parts[0] : .geometryCollection(GeometryCollection(parts))
            if parts.count > 1 { geometry = try context.unaryUnion(geometry) }
        } else {
            do { geometry = try context.geometry(fromWKT: trimmed) } catch {
                throw ExtractError(.area, "--area \(trimmed): not a bounding box or WKT (\(error))")
            }
        }
        guard geometry.type.topologicalDimension == 2 || geometry.type == .geometryCollection else {
            throw ExtractError(.area, "--area \(trimmed): an area must be a polygon or multipolygon, not \(geometry.type.name)")
        }
        if try !context.validity(geometry).isValid { geometry = try context.makeValid(geometry).polygonal }
        if case .multiPolygon(let m) = geometry, m.polygons.count == 1 { geometry = .polygon(m.polygons[0]) }
        guard !geometry.isEmpty, try context.area(geometry) > 0 else {
            throw ExtractError(.area, "--area \(trimmed): the area is empty")
        }
        return ExtractArea(geometry: geometry, given: trimmed, crs: crs)
    }

    /// The area in another CRS, its edges densified first so that they follow the curve
    /// the straight edge becomes (a degree-long edge in EPSG:4326 is curved in most
    /// projections), and made valid again.
    /// - Throws: `ExtractError` (`.crs`) when the area cannot be transformed.
    func geometry(in target: CoordinateReferenceSystem, proj: PROJContext, geos: GEOSContext) throws -> Geometry {
        let given = original ?? geometry  // in `crs`
        let source = try CoordinateReferenceSystem(crs, context: proj)
        if source.identity == target.identity { return given }
        do {
            let transformer = try Transformer(from: source, to: target, context: proj)
            guard let e = given.envelope else { return given }
            let step = max(e.width, e.height) / 64
            var g = try transformer.transform(given.densified(maxSegmentLength: step))
            if try !geos.validity(g).isValid { g = try geos.makeValid(g).polygonal }
            return g
        } catch {
            throw ExtractError(.crs, "cannot transform the area from \(crs) to \(target.identity): \(error)")
        }
    }
}
