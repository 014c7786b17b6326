import Foundation
import Geodatabase
import Geometry
import SourceDrivers

/// Planning: everything checked and resolved before anything is written (the layers, their
/// CRS, the SRS rows, the plan of each layer and the basemap's). What the source holds is
/// asked of the ``FeatureSource`` its driver opens (chosen by the source's address through
/// ``SourceRegistry``); no SQL is written here.
extension Extractor {
    /// Everything checked and resolved before anything is written.
    struct Prepared: Sendable {
        var request: ExtractRequest
        /// The source, open; read by ``read(_:send:isCancelled:snapshotRead:)``.
        var source: OpenedSource
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
        // The source is named before the output is: its driver says what is wrong with it.
        let source: any FeatureSource
        do { source = try SourceRegistry.shared.openFeatureSource(request.source) } catch let error as SourceError {
            throw ExtractError(.source, error.message)
        }
        if !request.output.isEmpty {
            try PackageDirectory.checkOutput(URL(fileURLWithPath: request.output).standardizedFileURL, force: request.force,
                                             inputs: request.inputs)
        }
        let planned = try PlannedArea(request)
        try checkRegistrable(request, source: source)
        let (chosen, relationships) = try chooseLayers(request, source: source)
        var planner = LayerPlanner(request: request, source: source, planned: planned, relationships: relationships)
        let plans = try chosen.map { try planner.plan($0) }
        var warnings = planned.warnings
        if request.crs == nil {
            warnings += try layerAreaOfUseWarnings(plans, lonLatArea: planned.lonLatArea, areaText: request.area,
                                                   proj: planned.proj, geos: planned.geos)
        }
        let basemap = try request.tiles.map {
            try Basemap.plan($0, area: planned.area, geos: planned.geos, proj: planned.proj, isCancelled: isCancelled, progress: progress)
        }
        return Prepared(request: request, source: OpenedSource(source), area: planned.area,
                        lonLatArea: planned.lonLatArea, plans: plans, areas: planner.areas, relationships: relationships,
                        spatialReferenceSystems: planner.spatialReferenceSystems, basemap: basemap, warnings: warnings)
    }

    /// A package to be registered as a replica needs a sync-enabled source it can write to.
    private static func checkRegistrable(_ request: ExtractRequest, source: any FeatureSource) throws {
        guard request.register else { return }
        if try !source.isSyncEnabled() {
            throw ExtractError(.registration, "source \(SourceAddress.redacted(request.source)) is not sync-enabled, so the package cannot be "
                + "registered as a replica; run 'pkgbuild source enable \(SourceAddress.redacted(request.source))' or pass --no-register")
        }
        if source.isReadOnly {
            throw ExtractError(.registration, "source \(SourceAddress.redacted(request.source)) is read-only, so the package cannot be "
                + "registered as a replica; pass --no-register to build an unregistered package")
        }
    }

    /// The layers: the named ones, or every feature and attribute table (mapping tables of
    /// relationships travel with their relationship, not as layers); and the relationships
    /// between them.
    /// - Throws: `ExtractError(.layer)` for a `--layer`, `--schema-only` or `--where` that
    ///   names no layer taken.
    private static func chooseLayers(_ request: ExtractRequest,
                                     source: any FeatureSource) throws -> ([FeatureLayer], [Relationship]) {
        let sourceRelationships = try source.relationships()
        let mappingTables = Set(sourceRelationships.compactMap { $0.mappingTable.map { SQLName($0) } })
        let candidates = try source.layers().filter { !mappingTables.contains(SQLName($0.name)) }
        var chosen: [FeatureLayer] = []
        if request.layers.isEmpty {
            chosen = candidates
        } else {
            for name in request.layers {
                guard let layer = candidates.first(where: { SQLName($0.name) == SQLName(name) }) else {
                    throw ExtractError(.layer, "--layer \(name): no feature or attribute table of that name in \(SourceAddress.redacted(request.source))"
                        + " (there are: \(candidates.map(\.name).joined(separator: ", ")))")
                }
                if !chosen.contains(where: { $0.name == layer.name }) { chosen.append(layer) }
            }
        }
        for name in request.schemaOnly + request.filters.map(\.layer)
        where !chosen.contains(where: { SQLName($0.name) == SQLName(name) }) {
            throw ExtractError(.layer, "layer \(name) is not among the layers extracted from \(SourceAddress.redacted(request.source))")
        }
        let chosenNames = Set(chosen.map { SQLName($0.name) })
        let relationships = sourceRelationships.filter {
            chosenNames.contains(SQLName($0.originTable)) && chosenNames.contains(SQLName($0.destinationTable))
        }
        return (chosen, relationships)
    }
}
