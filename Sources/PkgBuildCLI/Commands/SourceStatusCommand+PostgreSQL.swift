import Geometry
import PostgreSQLSource

/// `pkgbuild source status PG:...`: a PostgreSQL schema's tables, generation (the current
/// snapshot's xmin), change log and registry, as for a GeoPackage; no journal mode.
extension SourceStatusCommand {
    func runPostgreSQL(_ context: CommandContext) throws {
        let status = try PostgreSQLSourceAdministration(source).status()
        if json {
            context.print(jsonValue(status).prettyPrinted)
        } else {
            context.write(text(status))
        }
    }

    func jsonValue(_ status: PostgreSQLSourceStatus) -> JSONValue {
        let tables = status.tables.map { table -> JSONValue in
            .object(["name": .string(table.name), "kind": .string(table.kind), "rows": .int(table.rowCount),
                     "tracked": .bool(table.isTracked), "global_id_column": .string(table.globalIDColumn)])
        }
        return .object([
            "source": .string(SourceCommand.shown(source)), "enabled": .bool(status.isEnabled),
            "generation": status.isEnabled ? .int(status.generation) : .null,
            "change_log_rows": status.changeLogRows.map { .int($0) } ?? .null,
            "pruned_before": status.prunedBefore.map { .int($0) } ?? .null,
            "tables": .array(tables), "replicas": .array(status.replicas.map(\.jsonValue)),
            "retired_replicas": .array(status.retired.map(\.jsonValue)),
            "refused_syncs": .array(status.refusals.map(\.jsonValue)),
            "relationships": .array(status.relationships.map(\.jsonValue)),
        ])
    }

    func text(_ status: PostgreSQLSourceStatus) -> String {
        let shown = SourceCommand.shown(source)
        var out = "Source: \(shown)\n"
        if status.isEnabled {
            let pruned = (status.prunedBefore ?? 0) > 0 ? "pruned before \(status.prunedBefore ?? 0)" : "never pruned"
            out += "Sync-enabled, generation \(status.generation), change log \(status.changeLogRows ?? 0) rows (\(pruned))\n"
        } else {
            out += "Not sync-enabled (run 'pkgbuild source enable \(shown)')\n"
        }
        out += Self.tablesText(status.tables.map {
            TableRow(name: $0.name, kind: $0.kind, rowCount: $0.rowCount, globalIDColumn: $0.globalIDColumn, isTracked: $0.isTracked)
        })
        out += Self.replicasText(status.replicas) + Self.retiredText(status.retired) + Self.refusalsText(status.refusals)
        return out + Self.relationshipsText(status.relationships)
    }
}
