/// How a GeoPackage source logs an upload: its rows written without the change-log triggers,
/// and logged a batch at a time (``SourceLogDeferral`` says why and when that is safe).
import Geodatabase
import Geometry
import SQLite
import SourceDrivers

/// Whether the triggers or the sync log the writes of the apply context.
enum UploadLogging {
    case outsideApplyContext
    /// In the apply context, before its first write.
    case undecided
    /// The triggers are dropped: each batch is logged as it is written.
    case deferred(SourceLogDeferral)
    /// The triggers log (a trigger of another tool is in the file, or foreign key actions
    /// are on, or a row came without its global id).
    case byTriggers
}

extension GeoPackageSyncSource {
    public func apply(_ write: SourceWrite, in table: TableShape) throws -> SourceWriteOutcome {
        try apply([write], in: table)[0]
    }

    public func apply(_ writes: [SourceWrite], in table: TableShape) throws -> [SourceWriteOutcome] {
        guard let deferral = try deferredLog(for: writes, in: table) else {
            return try writes.map { try write($0, in: table) }
        }
        var outcomes: [SourceWriteOutcome] = [], entries: [SourceLogDeferral.Entry] = []
        do {
            for write in writes {
                let outcome = try self.write(write, in: table)
                if let entry = Self.logEntry(of: write, outcome, in: table) { entries.append(entry) }
                outcomes.append(outcome)
            }
        } catch {
            // The sync rolls back on an error it does not settle; should a caller go on, what
            // was written is logged all the same.
            try deferral.log(entries, table: table.name)
            throw error
        }
        try deferral.log(entries, table: table.name)
        return outcomes
    }

    /// What the trigger would log for a write: an insert, an update or delete that found its
    /// row, with the global id written.
    private static func logEntry(of write: SourceWrite, _ outcome: SourceWriteOutcome,
                                 in table: TableShape) -> SourceLogDeferral.Entry? {
        guard case .applied(found: true) = outcome else { return nil }
        switch write {
        case .insert(let row):
            // `deferredLog` hands no insert without one to a deferral.
            guard let globalID = insertedGlobalID(row, in: table) else {
                preconditionFailure("an insert without a text global id was written with the log triggers dropped")
            }
            return (globalID, .insert)
        case .update(let globalID, let row):
            let written = row.columns.filter { $0 != table.keyColumn && $0 != table.globalIDColumn }
            return written.isEmpty ? nil : (globalID, .update)
        case .delete(let globalID):
            return (globalID, .delete)
        }
    }

    /// The deferral to log these writes with, begun at the apply context's first write; nil
    /// where the triggers log them. An insert without its global id (the insert trigger
    /// gives it one) ends the deferral for the rest of the context.
    private func deferredLog(for writes: [SourceWrite], in table: TableShape) throws -> SourceLogDeferral? {
        if writes.contains(where: { if case .insert(let row) = $0 { Self.insertedGlobalID(row, in: table) == nil } else { false } }) {
            try endDeferredLogging()
            if case .undecided = uploadLog { uploadLog = .byTriggers }
        }
        switch uploadLog {
        case .outsideApplyContext, .byTriggers: return nil
        case .deferred(let deferral): return deferral
        case .undecided:
            // Every layer's: GDAL's triggers on a table the source does not track are as harmless.
            var geometryColumns: [String: String] = [:]
            for layer in try readSchema().layers { geometryColumns[layer.name] = layer.geometryColumn?.name }
            guard try SourceLogDeferral.isSafe(in: connection, geometryColumns: geometryColumns) else {
                uploadLog = .byTriggers
                return nil
            }
            let deferral = try SourceLogDeferral(tables: try geodatabase.trackedTables(), on: connection)
            uploadLog = .deferred(deferral)
            return deferral
        }
    }

    /// The global id an inserted row carries, nil when it has no text one.
    private static func insertedGlobalID(_ row: SourceRow, in table: TableShape) -> String? {
        if case .text(let globalID)? = row[table.globalIDColumn] { return globalID }
        return nil
    }

    /// Puts the log triggers back, when they were dropped.
    func endDeferredLogging() throws {
        guard case .deferred(let deferral) = uploadLog else { return }
        try deferral.restore()
        uploadLog = .byTriggers
    }
}
