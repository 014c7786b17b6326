import Foundation
import Geodatabase
import Geometry

/// Planning: everything checked and resolved before anything is written (the layers, their
/// CRS, the SRS rows, the plan of each layer and the basemap's). What the source holds is
/// asked of a ``GeoPackageSourceCatalog``; no SQL is written here.
extension Extractor {
    /// Everything checked and resolved before anything is written.
    struct Prepared: Sendable {
        var request: ExtractRequest
        var area: AreaOfInterest
        /// The area in EPSG:4326 (x = longitude), for the manifest and the basemap.
        var lonLatArea: Geometry
        var plans: [LayerPlan]
        var areas: [String: Geometry]
        var relationships: [Relationship]
        var spatialReferenceSystems: [SpatialReferenceInfo]
        var basemap: Basemap?
        /// Found while preparing, for the result (a CRS that does not cover all the area).
        var warnings: [String] = []
    }

    /// - Throws: `ExtractError` naming the input and the problem, before anything is written.
    /// - Parameter progress: the basemap's planning (`ExtractStage.planning`).
    static func prepare(_ request: ExtractRequest, isCancelled: () -> Bool = { false },
                        progress: ExtractProgress = { _, _, _ in }) throws -> Prepared {
        guard FileManager.default.fileExists(atPath: request.source) else {
            throw ExtractError(.source, "source \(request.source) does not exist")
        }
        if !request.output.isEmpty {
            try PackageDirectory.checkOutput(URL(fileURLWithPath: request.output).standardizedFileURL, force: request.force,
                                             inputs: request.inputs)
        }
        let catalog = try GeoPackageSourceCatalog(path: request.source)
        let planned = try PlannedArea(request)
        try checkRegistrable(request, catalog: catalog)
        let (chosen, relationships) = try chooseLayers(request, schema: catalog.schema)
        var planner = LayerPlanner(request: request, catalog: catalog, planned: planned, relationships: relationships)
        let plans = try chosen.map { try planner.plan($0) }
        var warnings = planned.warnings
        if request.crs == nil {
            warnings += try layerAreaOfUseWarnings(plans, lonLatArea: planned.lonLatArea, areaText: request.area,
                                                   proj: planned.proj, geos: planned.geos)
        }
        let basemap = try request.tiles.map {
            try Basemap.plan($0, area: planned.area, geos: planned.geos, proj: planned.proj, isCancelled: isCancelled, progress: progress)
        }
        return Prepared(request: request, area: planned.area, lonLatArea: planned.lonLatArea, plans: plans,
                        areas: planner.areas, relationships: relationships,
                        spatialReferenceSystems: planner.spatialReferenceSystems, basemap: basemap, warnings: warnings)
    }

    /// A package to be registered as a replica needs a sync-enabled source it can write to.
    private static func checkRegistrable(_ request: ExtractRequest, catalog: GeoPackageSourceCatalog) throws {
        guard request.register else { return }
        if try !catalog.isSyncEnabled() {
            throw ExtractError(.registration, "source \(request.source) is not sync-enabled, so the package cannot be "
                + "registered as a replica; run 'pkgbuild source enable \(request.source)' or pass --no-register")
        }
        if !FileManager.default.isWritableFile(atPath: request.source) {
            throw ExtractError(.registration, "source \(request.source) is read-only, so the package cannot be "
                + "registered as a replica; pass --no-register to build an unregistered package")
        }
    }

    /// The layers: the named ones, or every feature and attribute table (mapping tables of
    /// relationships travel with their relationship, not as layers); and the relationships
    /// between them.
    /// - Throws: `ExtractError(.layer)` for a `--layer`, `--schema-only` or `--where` that
    ///   names no layer taken.
    private static func chooseLayers(_ request: ExtractRequest,
                                     schema: GeoPackageSchema) throws -> ([LayerInfo], [Relationship]) {
        let mappingTables = Set(schema.relationships.compactMap { $0.mappingTable.map { SQLName($0) } })
        let candidates = schema.layers.filter {
            ($0.kind == .features || $0.kind == .attributes) && !mappingTables.contains(SQLName($0.name))
        }
        var chosen: [LayerInfo] = []
        if request.layers.isEmpty {
            chosen = candidates
        } else {
            for name in request.layers {
                guard let layer = candidates.first(where: { SQLName($0.name) == SQLName(name) }) else {
                    throw ExtractError(.layer, "--layer \(name): no feature or attribute table of that name in \(request.source)"
                        + " (there are: \(candidates.map(\.name).joined(separator: ", ")))")
                }
                if !chosen.contains(where: { $0.name == layer.name }) { chosen.append(layer) }
            }
        }
        for name in request.schemaOnly + request.filters.map(\.layer)
        where !chosen.contains(where: { SQLName($0.name) == SQLName(name) }) {
            throw ExtractError(.layer, "layer \(name) is not among the layers extracted from \(request.source)")
        }
        let chosenNames = Set(chosen.map { SQLName($0.name) })
        let relationships = schema.relationships.filter {
            chosenNames.contains(SQLName($0.originTable)) && chosenNames.contains(SQLName($0.destinationTable))
        }
        return (chosen, relationships)
    }
}
