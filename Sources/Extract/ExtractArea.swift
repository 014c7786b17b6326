import Foundation
import Geometry

/// The area of interest as the extraction uses it: a valid polygonal geometry in EPSG:4326,
/// with the text it was given as.
struct ExtractArea: Sendable {
    var geometry: Geometry
    var given: String
    var crs: String

    /// Parses `minx,miny,maxx,maxy` or WKT and makes it valid.
    /// - Throws: `ExtractError` (`.area`) naming the area when it is empty, not polygonal or
    ///   cannot be read.
    static func parse(_ text: String, crs: String?, context: GEOSContext) throws -> ExtractArea {
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
            throw ExtractError(.area, "--area \(trimmed): GeoJSON files are not read yet; give a bbox or WKT")
        } else {
            do { geometry = try context.geometry(fromWKT: trimmed) } catch {
                throw ExtractError(.area, "--area \(trimmed): not a bounding box or WKT (\(error))")
            }
        }
        if let crs, !["EPSG:4326", "OGC:CRS84"].contains(crs.uppercased()) {
            throw ExtractError(.crs, "--area-crs \(crs): only EPSG:4326 is supported so far")
        }
        guard geometry.type.topologicalDimension == 2 || geometry.type == .geometryCollection else {
            throw ExtractError(.area, "--area \(trimmed): an area must be a polygon or multipolygon, not \(geometry.type.name)")
        }
        if try !context.validity(geometry).isValid { geometry = try context.makeValid(geometry).polygonal }
        if case .multiPolygon(let m) = geometry, m.polygons.count == 1 { geometry = .polygon(m.polygons[0]) }
        guard !geometry.isEmpty, try context.area(geometry) > 0 else {
            throw ExtractError(.area, "--area \(trimmed): the area is empty")
        }
        return ExtractArea(geometry: geometry, given: trimmed, crs: crs ?? "EPSG:4326")
    }
}
