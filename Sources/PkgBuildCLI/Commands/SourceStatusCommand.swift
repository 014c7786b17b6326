import Foundation
import Geodatabase
import Geometry
import SQLite

/// `pkgbuild source status SRC.gpkg`: the source's tables, generation, replicas and
/// relationships, read in one read transaction without writing to the file.
public struct SourceStatusCommand: Command {
    public static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show a source's tables, generation, replicas and relationships.",
        discussion: """
            Lists every feature and attribute table with its row count and whether it is \
            tracked for sync, the source's generation (the sequence number of its last \
            change), the replicas made from it (pending ones were registered by a 'create' \
            that did not finish) and its relationships. Works on a GeoPackage that is not \
            sync-enabled too, and says so. For a PostgreSQL schema the generation is the \
            current snapshot's xmin, and the change log's size and pruned position are shown.
            """,
        arguments: [
            SourceCommand.anySourceArgument,
            .json("status"),
        ])

    var source: String
    var json: Bool

    public init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source")
        json = arguments.flag("json")
    }

    /// One table of the status: a `gpkg_contents` feature or attribute table, or a tracked
    /// table outside it (a Related Tables mapping table).
    struct TableRow {
        var name: String
        var kind: String
        var rowCount: Int64
        var globalIDColumn: String?
        var isTracked: Bool
    }

    struct Report {
        var isEnabled: Bool
        var journalMode: String
        var generation: Int64?
        var tables: [TableRow]
        var replicas: [Replica]
        var retired: [RetiredReplica]
        /// Syncs refused as stale copies or against a restored source, newest first.
        var refusals: [SyncRefusalNote]
        var relationships: [Relationship]
    }

    public func run(_ context: CommandContext) throws {
        if SourceCommand.isPostgreSQL(source) { return try runPostgreSQL(context) }
        let geoPackage = try SourceCommand.openForReading(source)
        let report = try read(geoPackage.connection)
        if json {
            context.print(jsonValue(report).prettyPrinted)
        } else {
            context.write(text(report))
        }
    }

    /// Everything in one read transaction, so counts, generation and replicas agree.
    func read(_ connection: Connection) throws -> Report {
        let journalMode = try connection.journalMode?.rawValue ?? "unknown"
        return try connection.withTransaction {
            let schema = try GeoPackageSchema.read(from: connection)
            let sourceDatabase = SourceGeodatabase(connection: connection)
            let isEnabled = try sourceDatabase.isEnabled()
            let tracked = isEnabled ? try sourceDatabase.trackedTables() : []
            let trackedByName = Dictionary(tracked.map { (SQLName($0.name), $0) }, uniquingKeysWith: { first, _ in first })
            func rowCount(_ table: String) throws -> Int64 {
                try connection.scalar("SELECT count(*) FROM \(SQL.identifier(table))")?.int64Value ?? 0
            }

            var rows: [TableRow] = []
            for layer in schema.layers where layer.kind == .features || layer.kind == .attributes {
                let trackedTable = trackedByName[SQLName(layer.name)]
                rows.append(TableRow(name: layer.name, kind: layer.kind.dataType, rowCount: try rowCount(layer.name),
                                     globalIDColumn: trackedTable?.globalIDColumn ?? layer.globalIDColumn,
                                     isTracked: trackedTable != nil))
            }
            for table in tracked where !rows.contains(where: { SQLName($0.name) == SQLName(table.name) }) {
                rows.append(TableRow(name: table.name, kind: "mapping", rowCount: try rowCount(table.name),
                                     globalIDColumn: table.globalIDColumn, isTracked: true))
            }
            return Report(isEnabled: isEnabled, journalMode: journalMode,
                          generation: isEnabled ? try sourceDatabase.generation() : nil, tables: rows,
                          replicas: isEnabled ? try sourceDatabase.replicas() : [],
                          retired: isEnabled ? try sourceDatabase.retiredReplicas() : [],
                          refusals: isEnabled ? try sourceDatabase.refusals() : [], relationships: schema.relationships)
        }
    }

    /// The tables' lines of the text output.
    static func tablesText(_ rows: [TableRow]) -> String {
        var tables = TextTable(columns: [.init("TABLE"), .init("KIND"), .init("ROWS", alignment: .right),
                                         .init("TRACKED"), .init("GLOBAL ID")])
        for table in rows {
            tables.append([table.name, table.kind, String(table.rowCount), table.isTracked ? "yes" : "no",
                           table.globalIDColumn ?? "-"])
        }
        return "\nTables:\n" + tables.rendered
    }

    func jsonValue(_ report: Report) -> JSONValue {
        let tables = report.tables.map { table -> JSONValue in
            .object(["name": .string(table.name), "kind": .string(table.kind), "rows": .int(table.rowCount),
                     "tracked": .bool(table.isTracked), "global_id_column": .string(table.globalIDColumn)])
        }
        let replicas = report.replicas.map(\.jsonValue)
        return .object([
            "source": .string(source), "enabled": .bool(report.isEnabled), "journal_mode": .string(report.journalMode),
            "generation": report.generation.map { .int($0) } ?? .null,
            "tables": .array(tables), "replicas": .array(replicas),
            "retired_replicas": .array(report.retired.map(\.jsonValue)),
            "refused_syncs": .array(report.refusals.map(\.jsonValue)),
            "relationships": .array(report.relationships.map(\.jsonValue)),
        ])
    }

    func text(_ report: Report) -> String {
        var out = "Source: \(source)\n"
        if let generation = report.generation {
            out += "Sync-enabled, generation \(generation), journal mode \(report.journalMode)\n"
        } else {
            out += "Not sync-enabled (run 'pkgbuild source enable \(source)'), journal mode \(report.journalMode)\n"
        }

        out += Self.tablesText(report.tables)
        out += Self.replicasText(report.replicas) + Self.retiredText(report.retired) + Self.refusalsText(report.refusals)
        out += Self.relationshipsText(report.relationships)
        return out
    }

    /// The replicas' lines of the text output.
    static func replicasText(_ registered: [Replica]) -> String {
        var out = ""
        if registered.isEmpty {
            out += "\nReplicas: none\n"
        } else {
            var replicas = TextTable(columns: [.init("REPLICA"), .init("NAME"), .init("STATE"),
                                               .init("EXTRACTED AT", alignment: .right),
                                               .init("SYNCED TO", alignment: .right), .init("LAST SYNC")])
            for replica in registered {
                replicas.append([replica.id, replica.name ?? "-", replica.state.rawValue,
                                 String(replica.extractionGeneration), String(replica.syncGeneration),
                                 replica.lastSyncAt ?? "never"])
            }
            out += "\nReplicas:\n" + replicas.rendered
        }
        return out
    }

    /// The relationships' lines of the text output.
    static func relationshipsText(_ declared: [Relationship]) -> String {
        var out = ""
        if declared.isEmpty {
            out += "\nRelationships: none\n"
        } else {
            var relationships = TextTable(columns: [.init("RELATIONSHIP"), .init("ORIGIN"), .init("DESTINATION"),
                                                    .init("CARDINALITY"), .init("STORED IN")])
            for relationship in declared {
                relationships.append([relationship.name, "\(relationship.originTable).\(relationship.originKey)",
                                      "\(relationship.destinationTable).\(relationship.destinationKey)",
                                      relationship.cardinality.rawValue,
                                      relationship.mappingTable.map { "mapping table \($0)" } ?? "keys"])
            }
            out += "\nRelationships:\n" + relationships.rendered
        }
        return out
    }

    /// Unregistered replicas: when, by what, and who took over.
    static func retiredText(_ retired: [RetiredReplica]) -> String {
        guard !retired.isEmpty else { return "" }
        var table = TextTable(columns: [.init("REPLICA"), .init("NAME"), .init("UNREGISTERED"), .init("BY"), .init("REPLACED BY")])
        for r in retired { table.append([r.id, r.name ?? "-", r.retiredAt, r.retiredBy, r.successorID ?? "-"]) }
        return "\nUnregistered replicas (their packages can come back with 'pkgbuild sync PKG --reattach'):\n" + table.rendered
    }

    /// Syncs the source refused, newest first.
    static func refusalsText(_ refusals: [SyncRefusalNote]) -> String {
        guard !refusals.isEmpty else { return "" }
        var table = TextTable(columns: [.init("REFUSED AT"), .init("REPLICA"), .init("WHY")])
        for r in refusals { table.append([r.refusedAt, r.replicaID, r.reason]) }
        return "\nRefused syncs (stale package copies, a restored source):\n" + table.rendered
    }
}
