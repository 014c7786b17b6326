import Geodatabase
import Geometry
import PostgreSQLSource
import SQLite

/// `pkgbuild source enable SRC.gpkg`: makes a GeoPackage sync-ready (global ids, change log,
/// replica registry) in one transaction, and says what it did.
public struct SourceEnableCommand: Command {
    public static let configuration = CommandConfiguration(
        name: "enable",
        abstract: "Make a GeoPackage sync-ready.",
        discussion: """
            In one transaction: adds a 'globalid' UUID column to every synced table \
            (backfilled, unique, indexed), or adopts an existing text column of that name in \
            any letter case; adds the generation counter, the change log kept by triggers \
            (core SQL only, so GDAL, QGIS and sqlite3 keep working on the file) and the \
            replica registry. Running it again changes nothing.

            By default every feature and attribute table is tracked; --table limits that to \
            the tables named (tables already tracked stay tracked). The file is switched to \
            WAL so that extractions and office edits do not block each other; --no-wal keeps \
            its journal mode (for files on network shares).
            """,
        arguments: [
            SourceCommand.sourceArgument,
            .repeatingOption("table", valueName: "NAME", help: "A table to track. (default: every feature and attribute table)"),
            .flagPair("wal", defaultValue: true,
                      help: "Switch the file to WAL journal mode; --no-wal keeps the file's own."),
            .lockTimeout,
            .json("result"),
        ])

    var source: String
    var tables: [String]
    var useWAL: Bool
    var json: Bool

    public init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source")
        tables = try arguments.values("table")
        if let empty = tables.first(where: { $0.isEmpty }) {
            throw UsageError("The value '\(empty)' is invalid for '--table <NAME>': expected a table name")
        }
        useWAL = arguments.flag("wal")
        json = arguments.flag("json")
    }

    /// How a tracked table came by its global id column in this run.
    enum GlobalIDAction: String {
        case added, adopted
        /// Tracked before this run.
        case existing
    }

    public func run(_ context: CommandContext) throws {
        if PostgreSQLSourceDriver().accepts(source) { return try runOnPostgreSQL(context) }
        let geoPackage = try SourceCommand.open(source)
        let connection = geoPackage.connection
        let before = try Snapshot(connection)
        // One bar a table that needs global ids, labelled with its name.
        let progress = StageProgress(context: context)
        defer { progress.finish() }
        let tracked = try SourceGeodatabase(geoPackage).enable(
            .init(tables: tables.isEmpty ? nil : tables, useWAL: useWAL),
            progress: { table, done, total in progress.report(table, done: done, total: total) })
        progress.finish()
        let after = try Snapshot(connection)
        let changed = before != after
        let generation = try SourceGeodatabase(geoPackage).generation()
        let journalMode = try connection.journalMode?.rawValue ?? "unknown"

        let rows = tracked.map { table -> (TrackedTable, GlobalIDAction) in
            let key = SQLName(table.name)
            if before.trackedTables.contains(key) { return (table, .existing) }
            return (table, before.globalIDColumns[key] != nil ? .adopted : .added)
        }

        if json {
            let tablesJSON = rows.map { table, action -> JSONValue in
                .object(["name": .string(table.name), "key_column": .string(table.keyColumn),
                         "global_id_column": .string(table.globalIDColumn), "global_id": .string(action.rawValue)])
            }
            let report: JSONValue = .object([
                "source": .string(source), "changed": .bool(changed),
                "was_enabled": .bool(before.isEnabled), "journal_mode": .string(journalMode),
                "generation": .int(generation), "tables": .array(tablesJSON),
            ])
            context.print(report.prettyPrinted)
            return
        }
        // The summary confirms what was done; --quiet leaves it out.
        guard context.verbosity > .quiet else { return }

        if !changed {
            context.print("\(source) is already sync-enabled; nothing changed "
                          + "(\(tracked.count) \(tracked.count == 1 ? "table" : "tables") tracked, generation \(generation)).")
            return
        }
        context.print(before.isEnabled ? "Updated sync tracking of \(source):" : "Enabled sync on \(source):")
        var table = TextTable(columns: [.init("TABLE"), .init("KEY"), .init("GLOBAL ID")])
        for (tracked, action) in rows {
            let description: String
            switch action {
            case .added: description = "added column \(tracked.globalIDColumn)"
            case .adopted: description = "adopted existing column \(tracked.globalIDColumn)"
            case .existing: description = "already tracked (\(tracked.globalIDColumn))"
            }
            table.append([tracked.name, tracked.keyColumn, description])
        }
        context.write(table.rendered)
        context.print("Journal mode \(journalMode), generation \(generation).")
    }

    /// What enabling may change, read before and after to tell whether it changed anything:
    /// the schema cookie (any DDL bumps it), the rows changed through this connection, and
    /// the journal mode. Also what the summary needs: which tables were tracked and which
    /// had a `globalid` column before.
    struct Snapshot: Equatable {
        var schemaVersion: Int64
        var totalChanges: Int
        var journalMode: Connection.JournalMode?
        var isEnabled: Bool
        var trackedTables: Set<SQLName>
        /// Table name -> its `globalid` column (any letter case).
        var globalIDColumns: [SQLName: String]

        init(_ connection: Connection) throws {
            schemaVersion = try connection.scalar("PRAGMA schema_version")?.int64Value ?? 0
            totalChanges = connection.totalChanges
            journalMode = try connection.journalMode
            let source = SourceGeodatabase(connection: connection)
            isEnabled = try source.isEnabled()
            trackedTables = Set(try source.trackedTables().map { SQLName($0.name) })
            var columns: [SQLName: String] = [:]
            for row in try connection.query("""
                SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p
                WHERE m.type = 'table' AND lower(p.name) = 'globalid'
                """) {
                if let table = row[0].stringValue, let column = row[1].stringValue {
                    columns[SQLName(table)] = column
                }
            }
            globalIDColumns = columns
        }
    }
}
