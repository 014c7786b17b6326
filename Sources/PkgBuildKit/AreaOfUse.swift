/// Refusing coordinates outside the area a CRS is defined for: PROJ transforms many of them
/// without complaint into nonsense (a point in France in Alaska Albers), so an edit would
/// store a feature nobody can find again.
import Geometry

extension OfflinePackage {
    /// Longitude and latitude (WGS 84, x = longitude) of coordinates in `crs`.
    func lonLat(of coordinates: [Coordinate], in crs: CoordinateReferenceSystem) throws -> [Coordinate] {
        try transformer(from: crs, to: self.crs("EPSG:4326")).transform(coordinates)
    }

    /// Throws unless every coordinate lies inside the CRS's area of use.
    /// - Parameters:
    ///   - lonLats: the coordinates in longitude and latitude, in the order of `original`.
    ///   - original: the same coordinates as the caller gave them, for the message.
    ///   - role: what the CRS is to the caller, for the message ("the input CRS").
    func requireInsideAreaOfUse(_ lonLats: [Coordinate], original: [Coordinate],
                                of crs: CoordinateReferenceSystem, role: String) throws {
        for (index, c) in lonLats.enumerated() {
            let shown = original.indices.contains(index) ? original[index] : c
            guard c.x.isFinite, c.y.isFinite, (-90...90).contains(c.y) else {
                throw outside(shown, crs, role, detail: "it is not a place on Earth")
            }
            guard let area = crs.areaOfUse else { continue }
            let inLatitude = c.y >= area.minY && c.y <= area.maxY
            // minX > maxX: the area crosses the antimeridian (EPSG:3338's Aleutians).
            let inLongitude = area.minX <= area.maxX
                ? c.x >= area.minX && c.x <= area.maxX
                : c.x >= area.minX || c.x <= area.maxX
            guard inLatitude && inLongitude else {
                throw outside(shown, crs, role, detail: "its area of use is longitude \(area.minX) to \(area.maxX), "
                              + "latitude \(area.minY) to \(area.maxY); the point is at longitude \(c.x), latitude \(c.y)")
            }
        }
    }

    private func outside(_ c: Coordinate, _ crs: CoordinateReferenceSystem, _ role: String,
                         detail: String) -> PackageError {
        let name = crs.authority.map { "\($0.name):\($0.code)" } ?? crs.definition
        return PackageError(.outsideAreaOfUse,
                            "(\(c.x), \(c.y)) is outside the area of use of \(role) \(name) (\(crs.name ?? "unnamed")): \(detail)")
    }
}
