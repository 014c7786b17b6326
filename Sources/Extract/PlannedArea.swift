import Geodatabase
import Geometry

/// The area of a request as planning needs it, checked before any layer is looked at: as
/// the user gave it, in longitude and latitude, in each layer's CRS on demand, and the
/// package's CRS (`--crs`) as a spatial reference system row.
struct PlannedArea {
    let geos: GEOSContext
    let proj: PROJContext
    let area: AreaOfInterest
    /// The area in EPSG:4326 (x = longitude), for the manifest, the basemap and the
    /// area-of-use checks.
    let lonLatArea: Geometry
    /// The SRS the package's layers are reprojected into; nil when they keep their own.
    let packageSRS: SpatialReferenceInfo?
    /// An area repaired on parsing, a `--crs` that does not cover all the area.
    let warnings: [String]

    /// - Throws: `ExtractError` (`.crs`, `.area`) for an unknown CRS, an area that cannot be
    ///   parsed or transformed, a `--crs` that cannot hold the area.
    init(_ request: ExtractRequest) throws {
        let geos = try GEOSContext()
        let proj = try PROJContext()
        self.geos = geos
        self.proj = proj
        _ = try Self.crs(request.areaCRS ?? "EPSG:4326", option: "--area-crs", proj: proj)
        do {
            area = try AreaOfInterest(parsing: request.area, crs: request.areaCRS ?? "EPSG:4326", context: geos)
        } catch let error as GeometryError {
            throw ExtractError(.area, "--\(error.message)")
        }
        lonLatArea = try Self.transformed(area, into: try Self.crs("EPSG:4326", option: "EPSG:4326", proj: proj),
                                          proj: proj, geos: geos)
        var warnings = area.repairWarning.map { ["--\($0)"] } ?? []
        if let packageCRS = try request.crs.map({ try Self.crs($0, option: "--crs", proj: proj) }) {
            warnings += try Extractor.checkAreaOfUse(lonLatArea, of: packageCRS, option: "--crs \(packageCRS.definition)",
                                                     areaText: request.area, geos: geos)
            packageSRS = try Self.spatialReferenceSystem(packageCRS)
        } else {
            packageSRS = nil
        }
        self.warnings = warnings
    }

    /// The area in `target` (densified, transformed, made valid).
    /// - Throws: `ExtractError(.crs)` when PROJ cannot transform it.
    func transformed(into target: CoordinateReferenceSystem) throws -> Geometry {
        try Self.transformed(area, into: target, proj: proj, geos: geos)
    }

    private static func transformed(_ area: AreaOfInterest, into target: CoordinateReferenceSystem,
                                    proj: PROJContext, geos: GEOSContext) throws -> Geometry {
        do { return try area.geometry(in: target, proj: proj, geos: geos) } catch let error as GeometryError {
            throw ExtractError(.crs, "cannot transform the area from \(area.crs) to \(target.identity): \(error.message)")
        }
    }

    private static func crs(_ definition: String, option: String, proj: PROJContext) throws -> CoordinateReferenceSystem {
        do { return try CoordinateReferenceSystem(definition, context: proj) } catch {
            throw ExtractError(.crs, "\(option) \(definition): unknown CRS (\(error))")
        }
    }

    /// The `gpkg_spatial_ref_sys` row for `--crs`: its EPSG code as the id, or 100000 for a
    /// CRS without one.
    private static func spatialReferenceSystem(_ crs: CoordinateReferenceSystem) throws -> SpatialReferenceInfo {
        let code = crs.epsgCode
        let definition: String
        do { definition = try crs.wkt() } catch {
            throw ExtractError(.crs, "--crs \(crs.definition): no WKT for it (\(error))")
        }
        return SpatialReferenceInfo(
            srsID: Int64(code ?? 100_000), name: crs.name ?? crs.definition,
            organization: code == nil ? "NONE" : "EPSG", organizationCoordsysID: Int64(code ?? 100_000),
            definition: definition, description: nil)
    }
}
