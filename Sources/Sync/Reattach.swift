/// `sync --reattach`: the one way out for a stranded package (a stale copy, a source restored
/// from an older backup, an unregistered or unknown replica).
///
/// 1. At the source, in one transaction: a new replica at the source's current generation,
///    registered `pending` with the area and filters the source registered for the old one
///    (its registration, or its retired one), else the package's own after the authorizer
///    checked its filters; a first sync id recorded for it, so the package stands `current`.
///    A replica the package abandoned because the source was restored or forgot it is retired
///    naming its successor; a stale copy's old replica stays, since the original still uses it.
/// 2. In the package, in one transaction (``SyncRun/markDifferencesForReattach()``): the new
///    replica, generation and sync id; every pending edit, and every row where package and
///    source differ (rows the package holds, and rows it should hold and lacks), becomes a
///    pending change with no base (`pkgbuild_no_base`), so the next reconcile calls each
///    difference a conflict instead of merging it, and `resolve` (or a policy) settles it.
/// 3. The ordinary sync, which records those conflicts (or settles them by policy).
///
/// Killed between 1 and 2, the package still names its old replica; a re-run registers
/// another and the unused pending one stays listed by `source replicas`.
import Foundation
import Geodatabase
import PackageFormat
import SQLite
import SourceDrivers

enum Reattach {
    /// Step 1. - Returns: the package's state as the new replica will have it.
    static func registerAnew(_ state: PackageSyncState, package: Connection, packageName: String,
                            at source: any SyncSource) throws -> PackageSyncState {
        let standing = try source.standing(of: state.history)
        let scope = try registeredScope(of: state, package: package, at: source)
        var renewed = state
        renewed.replicaID = GlobalID.make()
        renewed.lastSyncID = GlobalID.make()
        renewed.pendingSyncID = nil
        renewed.pendingPosition = nil
        renewed.recordsEverySync = true
        try source.withTransaction(.write) {
            let position = try source.position()
            let generation = position.generation
            renewed.sourceGeneration = generation
            renewed.sourceCursor = position.cursor
            let layers = try source.replica(id: state.replicaID)?.layers ?? source.retiredReplica(id: state.replicaID)?.layers
                ?? PackageChangeTracking(connection: package).trackedTables().map(\.name)
            try source.registerReplica(ReplicaRegistration(
                id: renewed.replicaID, name: packageName, generation: generation, areaWKT: scope.areaWKT,
                areaCRS: scope.areaCRS, layers: layers, optionsJSON: scope.optionsJSON))
            try source.recordSync(replicaID: renewed.replicaID, syncID: renewed.lastSyncID ?? "", generation: generation)
            if case .refused(let refusal) = standing, refusal.reason != .staleCopy {
                if try source.replica(id: state.replicaID) != nil {
                    try source.unregisterReplica(id: state.replicaID, by: "pkgbuild sync --reattach (\(refusal.reason.rawValue))",
                                                 successor: renewed.replicaID)
                } else {
                    try source.recordSuccessor(renewed.replicaID, ofRetired: state.replicaID)
                }
            }
        }
        return renewed
    }

    /// The area and filters the new replica takes: the source's record of the old one, else
    /// the package's own, its filters checked as `create` checks them.
    static func registeredScope(of state: PackageSyncState, package: Connection,
                                at source: any SyncSource) throws -> RegisteredScope {
        if let replica = try source.replica(id: state.replicaID) { return RegisteredScope(replica) }
        if let retired = try source.retiredReplica(id: state.replicaID) {
            return RegisteredScope(areaWKT: retired.areaWKT, areaCRS: retired.areaCRS, optionsJSON: retired.optionsJSON)
        }
        var scope = RegisteredScope(areaWKT: state.areaWKT, areaCRS: state.areaCRS, optionsJSON: nil)
        for (layer, cut) in try PackageMetadata.layerCuts(in: package) {
            guard let expression = cut.filter else { continue }
            do { _ = try source.layerFilter(expression, table: layer) } catch {
                throw SyncError(.invalidArgument, "cannot re-attach: the package's filter for layer \(layer) is refused: \(error)")
            }
            scope.filters[SQLName(layer)] = expression
        }
        return scope
    }
}

extension SyncRun {
    /// Step 2: the package takes the new replica, and every difference from the source becomes
    /// a pending change with no base (see ``NoBaseRows``), in one package transaction.
    func markDifferencesForReattach() throws {
        // The source read in one snapshot, as a download reads it (a PostgreSQL source streams
        // rows only inside a transaction).
        try source.withTransaction(.read) {
            let scope = try DownloadScope(areas: areas, source: source, package: package, tables: tables,
                                          relationships: relationships, projections: projections, mappingLinks: mappingLinks,
                                          geos: geos)
            try package.withTransaction(.immediate) {
                try PackageSyncState.reattached(state, in: package)
                var edits: [RowKey: ChangeOperation] = [:]
                for row in try package.query("SELECT table_name, globalid, operation FROM pkgbuild_edits") {
                    let table = row[0].stringValue ?? "", globalID = row[1].stringValue ?? ""
                    edits[RowKey(table, globalID)] = try ChangeOperation(parsing: row[2], in: SyncSchema.editsTable,
                                                                         table: table, globalID: globalID)
                }
                for table in tables { try markDifferences(of: table, edits: edits, scope: scope) }
            }
        }
    }

    private func markDifferences(of table: SyncTable, edits: [RowKey: ChangeOperation], scope: DownloadScope) throws {
        var held = Set<String>()
        try packageRows.forEachGlobalID(in: table.shape) { globalID in
            held.insert(globalID)
            if try edits[RowKey(table.name, globalID)] != nil || differsFromSource(globalID, in: table, scope: scope) {
                try NoBaseRows.mark(globalID, of: table.name, globalIDColumn: table.globalIDColumn, as: .update, in: package)
            }
        }
        // Rows the package lacks: deleted offline, or the source's that should be here.
        try source.forEachGlobalID(in: table.shape) { globalID in
            guard !held.contains(globalID), let found = try sourceRows.row(globalID, in: table) else { return }
            if try edits[RowKey(table.name, globalID)] == .delete || downloadForm(of: found, in: table, scope: scope) != nil {
                try NoBaseRows.mark(globalID, of: table.name, globalIDColumn: table.globalIDColumn, as: .delete, in: package)
            }
        }
    }

    /// True when the package's row differs from what a download of the source's row would write.
    private func differsFromSource(_ globalID: String, in table: SyncTable, scope: DownloadScope) throws -> Bool {
        guard let held = try packageRows.row(globalID, in: table), let found = try sourceRows.row(globalID, in: table),
              let wouldBe = try downloadForm(of: found, in: table, scope: scope) else { return true }
        return table.valueColumns.contains { !comparator.equal(table, $0, held[$0] ?? .null, wouldBe[$0] ?? .null) }
    }
}
