/// `pkgbuild source enable PG:…`: the same verb on a PostgreSQL source (the pkgbuild schema,
/// uuid global ids, the logging triggers), reported as for a GeoPackage.
import Geometry
import PostgreSQLSource

extension SourceEnableCommand {
    func runOnPostgreSQL(_ context: CommandContext) throws {
        let enabler = try SourceEnabler(address: source)
        let tracked = try enabler.enable(tables: tables.isEmpty ? nil : tables)
        let changed = tracked.contains { $0.action != .existing }
        if json {
            let tablesJSON = tracked.map { table -> JSONValue in
                .object(["name": .string(table.name), "key_column": .string(table.keyColumn),
                         "global_id_column": .string(table.globalIDColumn), "global_id": .string(table.action.rawValue)])
            }
            context.print(JSONValue.object([
                "source": .string(enabler.displayName), "changed": .bool(changed), "tables": .array(tablesJSON),
            ]).prettyPrinted)
            return
        }
        guard context.verbosity > .quiet else { return }
        if !changed {
            context.print("\(enabler.displayName) is already sync-enabled; nothing changed "
                          + "(\(tracked.count) \(tracked.count == 1 ? "table" : "tables") tracked).")
            return
        }
        context.print("Enabled sync on \(enabler.displayName):")
        var table = TextTable(columns: [.init("TABLE"), .init("KEY"), .init("GLOBAL ID")])
        for row in tracked {
            let description: String
            switch row.action {
            case .added: description = "added column \(row.globalIDColumn)"
            case .adopted: description = "adopted existing column \(row.globalIDColumn)"
            case .existing: description = "already tracked (\(row.globalIDColumn))"
            }
            table.append([row.name, row.keyColumn, description])
        }
        context.write(table.rendered)
    }
}
