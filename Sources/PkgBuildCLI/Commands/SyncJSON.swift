import Geometry
import PackageFormat
import Sync

/// Sync reports and conflicts as JSON and text.
enum SyncJSON {
    static func counts(_ c: RowCounts) -> JSONValue {
        .object(["inserted": .int(c.inserted), "updated": .int(c.updated), "deleted": .int(c.deleted)])
    }

    static func conflict(_ c: Conflict, decision: ConflictSide? = nil) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("table", .string(c.table)), JSONMember("globalid", .string(c.globalID)),
            JSONMember("column", .string(c.column)), JSONMember("kind", .string(c.kind.rawValue)),
            JSONMember("base", .string(c.baseValue)), JSONMember("package", .string(c.packageValue)),
            JSONMember("source", .string(c.sourceValue)), JSONMember("resolution", .string(c.resolution?.rawValue)),
            JSONMember("resolved_by", .string(c.resolvedBy)),
        ]
        if let message = c.message { members.append(JSONMember("message", .string(message))) }
        if !c.otherRows.isEmpty { members.append(JSONMember("other_rows", .array(c.otherRows.map { .string($0) }))) }
        if let decision { members.append(JSONMember("decision", .string(decision.rawValue))) }
        return .object(members)
    }

    static func report(_ r: SyncReport) -> JSONValue {
        .object([
            "sync_id": .string(r.syncID), "replica_id": .string(r.replicaID), "source": .string(r.source),
            "direction": .string(r.direction.rawValue), "on_conflict": .string(r.policy.rawValue),
            "dry_run": .bool(r.dryRun), "status": .string(r.status.rawValue), "resumed": .bool(r.resumed),
            "generation_before": .int(r.generationBefore), "generation_after": .int(r.generationAfter),
            "uploaded": counts(r.uploaded), "downloaded": counts(r.downloaded), "left_area": .int(r.leftArea),
            "pending_after": .int(r.pendingAfter), "conflicts": .array(r.conflicts.map { conflict($0) }),
            "reattached_from": .string(r.reattachedFrom),
            "left": .array(r.left.map { .object(["table": .string($0.table), "globalid": .string($0.globalID),
                                                 "reason": .string($0.reason)]) }),
            "notes": .array(r.notes.map { .string($0) }),
        ])
    }

    static func text(_ r: SyncReport) -> String {
        func c(_ counts: RowCounts) -> String { "\(counts.inserted) inserted, \(counts.updated) updated, \(counts.deleted) deleted" }
        var out = r.dryRun ? "Dry run: nothing was changed.\n" : ""
        if let old = r.reattachedFrom {
            out += "Re-attached: replica \(old) -> \(r.replicaID); every difference from the source is a conflict below.\n"
        }
        for note in r.notes { out += "Note: \(note).\n" }
        switch r.status {
        case .stoppedOnConflicts:
            out += stopped(r)
        case .completed, .completedWithPending:
            out += r.direction == .download ? "Uploaded:   nothing (--direction download)\n" : "Uploaded:   \(c(r.uploaded))\n"
            out += r.direction == .upload ? "Downloaded: nothing (--direction upload)\n"
                : "Downloaded: \(c(r.downloaded)), \(r.leftArea) left the package\n"
            out += "Generation: \(r.generationBefore) -> \(r.generationAfter)\n"
            if r.pendingAfter > 0 { out += pending(r) }
        }
        for row in r.left { out += "Left:       \(row.table) \(row.globalID): \(row.reason)\n" }
        if !r.conflicts.isEmpty { out += "\n" + table(r.conflicts.map { ($0, nil) }) }
        for conflict in r.conflicts { if let message = conflict.message { out += "\(conflict.table) \(conflict.globalID): \(message)\n" } }
        return out
    }

    /// A sync stopped on conflicts changed no row; what it wrote is the conflict records.
    private static func stopped(_ r: SyncReport) -> String {
        let n = r.conflicts.count, p = r.pendingAfter
        var out = "Sync stopped on \(n) conflict\(n == 1 ? "" : "s"): no row was changed on either side.\n"
        if !r.dryRun {
            out += "Written:    \(n == 1 ? "the conflict" : "the \(n) conflicts") to the package's conflict records (see "
                + "'pkgbuild conflicts', then 'pkgbuild resolve')\n"
        }
        if p > 0 { out += "Pending:    \(p) local change\(p == 1 ? "" : "s"), kept for the next sync\n" }
        return out
    }

    private static func pending(_ r: SyncReport) -> String {
        let p = r.pendingAfter, changes = "\(p) local change\(p == 1 ? "" : "s")"
        if r.direction == .download {
            return "Pending:    \(changes), not uploaded (--direction download); a sync that uploads takes \(p == 1 ? "it" : "them")\n"
        }
        return "Pending:    \(changes) not synced\n"
    }

    static func table(_ rows: [(Conflict, ConflictSide?)]) -> String {
        var table = TextTable(columns: [.init("TABLE"), .init("GLOBALID"), .init("COLUMN"), .init("KIND"), .init("BASE"),
                                        .init("PACKAGE"), .init("SOURCE"), .init("RESOLUTION")])
        func short(_ s: String?) -> String {
            guard let s else { return "-" }
            return s.count > 40 ? String(s.prefix(37)) + "..." : s
        }
        for (c, decision) in rows {
            let resolution = c.resolution.map { "\($0.rawValue) (\(c.resolvedBy ?? ""))" }
                ?? decision.map { "take \($0.rawValue) next sync" } ?? "unresolved"
            table.append([c.table, c.globalID, c.column ?? "(row)", c.kind.rawValue, short(c.baseValue),
                          short(c.packageValue), short(c.sourceValue), resolution])
        }
        return table.rendered
    }
}
