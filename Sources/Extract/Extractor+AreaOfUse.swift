import Geometry

/// The package CRS against the area: PROJ transforms coordinates far outside a CRS's area of
/// use without complaint, but every edit there is refused later (the kit checks each
/// coordinate against the area of use), so a package in such a CRS is a package nobody can
/// edit. Refused when the area lies wholly outside, a warning when only part of it does.
extension Extractor {
    /// - Parameters:
    ///   - lonLatArea: the area in EPSG:4326, x = longitude.
    ///   - crs: the CRS the package's layers will be in.
    ///   - option: how the user named the CRS, for the message (`--crs EPSG:2263`).
    ///   - areaText: the area as the user wrote it, for the message.
    /// - Returns: a warning when part of the area is outside the CRS's area of use.
    /// - Throws: `ExtractError(.crs)` when the area is wholly outside it.
    static func checkAreaOfUse(_ lonLatArea: Geometry, of crs: CoordinateReferenceSystem, option: String,
                               areaText: String, geos: GEOSContext) throws -> [String] {
        guard let use = crs.areaOfUse, let areaBox = lonLatArea.envelope else { return [] }
        let useGeometry = Self.areaOfUseGeometry(use)
        let name = "\(option) (\(crs.name ?? "unnamed"))"
        let described = "its area of use is \(Self.describe(use)); the area \(AreaOfInterest.abbreviated(areaText)) "
            + "spans \(Self.describe(areaBox))"
        guard try geos.intersects(lonLatArea, useGeometry) else {
            throw ExtractError(.crs, "\(name) cannot hold this area: \(described). Every geometry edit in the package would "
                + "be refused; choose a CRS made for the area (its UTM zone, a national grid) or leave --crs out")
        }
        let whole = try geos.area(lonLatArea)
        let inside = try geos.area(geos.intersection(lonLatArea, useGeometry))
        guard whole > 0, inside < whole * (1 - 1e-9) else { return [] }
        let outsideShare = Int(((whole - inside) / whole * 100).rounded(.up))
        return ["\(name): about \(outsideShare)% of the area lies outside the CRS's area of use (\(described)); "
                + "geometry edits there will be refused"]
    }

    /// The area of use as polygons in longitude and latitude, in two boxes when it crosses
    /// the antimeridian (west > east, as PROJ gives EPSG:3338's).
    static func areaOfUseGeometry(_ use: Envelope) -> Geometry {
        guard use.minX > use.maxX else { return .polygon(use.polygon) }
        return .multiPolygon(MultiPolygon([
            Envelope(minX: use.minX, minY: use.minY, maxX: 180, maxY: use.maxY).polygon,
            Envelope(minX: -180, minY: use.minY, maxX: use.maxX, maxY: use.maxY).polygon,
        ]))
    }

    /// `longitude -79.77 to -71.8, latitude 40.47 to 45.01`.
    static func describe(_ box: Envelope) -> String {
        func number(_ value: Double) -> String { String(format: "%g", value) }
        return "longitude \(number(box.minX)) to \(number(box.maxX)), latitude \(number(box.minY)) to \(number(box.maxY))"
    }
}
