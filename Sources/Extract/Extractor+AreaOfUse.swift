import Geometry

/// The package's CRSs against the area: PROJ transforms coordinates far outside a CRS's area
/// of use without complaint, but every edit there is refused later (the kit checks each
/// coordinate against the area of use), so a layer in such a CRS is a layer nobody can edit.
/// `--crs` is refused when the area lies wholly outside its area of use; a layer that keeps
/// its source's CRS is the source's choice, and only warned about.
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
        guard let outside = try outside(lonLatArea, crs, areaText: areaText, geos: geos) else { return [] }
        let name = "\(option) (\(crs.name ?? "unnamed"))"
        guard outside.share < 100 else {
            throw ExtractError(.crs, "\(name) cannot hold this area: \(outside.described). Every geometry edit in the "
                + "package would be refused; choose a CRS made for the area (its UTM zone, a national grid) or leave --crs out")
        }
        return ["\(name): about \(outside.share)% of the area lies outside the CRS's area of use (\(outside.described)); "
                + "geometry edits there will be refused"]
    }

    /// Warnings for the spatial layers that keep their source's CRS where it does not cover the area.
    static func layerAreaOfUseWarnings(_ plans: [LayerPlan], lonLatArea: Geometry, areaText: String,
                                       proj: PROJContext, geos: GEOSContext) throws -> [String] {
        var warnings: [String] = []
        for plan in plans where plan.mode == .spatial && plan.packageCRSDefinition == nil {
            guard let definition = plan.sourceCRSDefinition,
                  let crs = try? CoordinateReferenceSystem(definition, context: proj),
                  let outside = try outside(lonLatArea, crs, areaText: areaText, geos: geos) else { continue }
            let share = outside.share < 100 ? "about \(outside.share)% of the area lies" : "the area lies wholly"
            warnings.append("layer \(plan.name) keeps its CRS \(plan.sourceCRS ?? crs.identity) (\(crs.name ?? "unnamed")) "
                + "and \(share) outside its area of use (\(outside.described)); geometry edits and inserts there "
                + "will be refused (--crs reprojects the layers)")
        }
        return warnings
    }

    /// How much of the area (a percentage, rounded up; 100 when none of it is inside) lies
    /// outside the CRS's area of use, with the two extents in words; nil when all of it is
    /// inside, or PROJ knows no area of use.
    private static func outside(_ lonLatArea: Geometry, _ crs: CoordinateReferenceSystem, areaText: String,
                                geos: GEOSContext) throws -> (share: Int, described: String)? {
        guard let use = crs.areaOfUse, let areaBox = lonLatArea.envelope else { return nil }
        let useGeometry = areaOfUseGeometry(use)
        let described = "its area of use is \(describe(use)); the area \(AreaOfInterest.abbreviated(areaText)) "
            + "spans \(describe(areaBox))"
        guard try geos.intersects(lonLatArea, useGeometry) else { return (100, described) }
        let whole = try geos.area(lonLatArea)
        let inside = try geos.area(geos.intersection(lonLatArea, useGeometry))
        guard whole > 0, inside < whole * (1 - 1e-9) else { return nil }
        return (min(99, Int(((whole - inside) / whole * 100).rounded(.up))), described)
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
