import Geodatabase
import Geometry

/// Reading: the source read in one snapshot by a ``SourceReader`` (on the worker thread
/// for `create`, inline for `estimate`), and what the read came to.
extension Extractor {
    static func read(_ prepared: Prepared, send: @escaping (ExtractMessage) -> Bool,
                     isCancelled: @escaping () -> Bool, snapshotRead: () throws -> Void = {}) throws -> ExtractTally {
        let source = prepared.source.source
        let reader = SourceReader(
            source: source, plans: prepared.plans, areas: prepared.areas,
            relationships: prepared.relationships, clip: prepared.request.clip,
            skipInvalid: prepared.request.skipInvalid, includeRelated: prepared.request.includeRelated,
            makeTransform: makeTransform, send: send, isCancelled: isCancelled)
        do {
            return try reader.run(position: {
                let position = try source.changePosition()
                try snapshotRead()
                return position
            })
        } catch let stop as CheckpointStop {
            throw stop
        } catch let error as ExtractError {
            throw error
        } catch {
            throw ExtractError(.failure, "reading \(prepared.request.source): \(error)")
        }
    }

    /// The reprojection of a layer, made on the reading worker with its own PROJ context.
    static func makeTransform(_ plan: LayerPlan) throws -> ((Geometry) throws -> Geometry)? {
        guard let from = plan.sourceCRSDefinition, let to = plan.packageCRSDefinition else { return nil }
        let proj = try PROJContext()
        let transformer = try Transformer(from: from, to: to, context: proj)
        return { g in
            do { return try transformer.transform(g) } catch let error as GeometryError {
                throw ExtractError(.crs, "layer \(plan.name): cannot transform a geometry from \(from) to \(to): \(error.message)")
            }
        }
    }

    /// The layers' counts and cuts, and the warnings of the plan and of the read.
    static func result(_ prepared: Prepared, tally: ExtractTally, replicaID: String?, package: String?) -> Result {
        var warnings = prepared.warnings + tally.warnings
        let layers = prepared.plans.map { plan in
            var cut = plan.cut
            cut.relatedRows = tally.related[plan.name] ?? 0
            return LayerResult(name: plan.name, dataType: plan.table.dataType, geometryType: plan.table.geometry?.geometryTypeName,
                               crs: plan.packageCRS, selected: tally.selected[plan.name] ?? 0,
                               related: tally.related[plan.name] ?? 0,
                               skippedInvalid: tally.skippedInvalid[plan.name] ?? 0, cut: cut)
        }
        for layer in layers where layer.skippedInvalid > 0 {
            warnings.append("layer \(layer.name): skipped \(layer.skippedInvalid) features whose geometry could not be read")
        }
        let spatial = layers.filter { $0.cut.spatial }
        if !spatial.isEmpty && spatial.allSatisfy({ $0.selected == 0 }) {
            warnings.append("the area \(prepared.area.text) holds no features of \(spatial.map(\.name).joined(separator: ", ")); "
                + "the package has no features")
        }
        return Result(layers: layers, generation: tally.generation, replicaID: replicaID, package: package,
                      warnings: warnings, tiles: nil)
    }
}
