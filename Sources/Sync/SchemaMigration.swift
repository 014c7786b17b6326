/// Schema evolution, the step a sync takes before anything else: a column added to a tracked
/// table at the source reaches the package (added to the table and its base table, its values
/// downloaded for the packaged rows and into the base rows of pending edits, the triggers
/// re-installed, pending edits kept); the source's triggers are brought to cover every column.
/// Any other difference (a column dropped or retyped, or added in the package only) is refused
/// naming table, column and side, before either database is written.
import Geodatabase
import PackageFormat
import SQLite
import SourceDrivers

enum SchemaMigration {
    struct Column: Equatable {
        var name: String
        var type: String
    }

    /// A column to add to a package table.
    struct Addition {
        var table: String
        var column: Column
    }

    /// Checks every tracked table of the package against the source.
    /// - Returns: the columns the source gained since the package was built.
    /// - Throws: ``SyncError`` (`schemaChanged`) for any other difference.
    static func plan(package: Connection, sourceTables: [SourceTable]) throws -> [Addition] {
        var additions: [Addition] = []
        for tracked in try PackageChangeTracking(connection: package).trackedTables() {
            guard let sourceTable = sourceTables.first(where: { SQLName($0.name) == SQLName(tracked.name) }) else { continue }
            additions += try compare(table: tracked.name, package: package, source: sourceTable)
        }
        return additions
    }

    /// Takes the additions into the package and refreshes both sides' triggers.
    /// - Parameter dryRun: writes nothing; refuses when there is something to add, since the
    ///   rest of a dry run could not foresee the sync without it.
    static func apply(_ additions: [Addition], package: Connection, source: any SyncSource, dryRun: Bool) throws {
        if dryRun {
            if let first = additions.first {
                throw SyncError(.schemaChanged, """
                    column '\(first.table).\(first.column.name)' was added at the source; a sync (not a dry run) adds it to the package
                    """)
            }
            return
        }
        try source.refreshTracking()
        let tracking = PackageChangeTracking(connection: package)
        try tracking.withoutTracking {
            for addition in additions {
                try package.execute("""
                    ALTER TABLE \(SQL.identifier(addition.table)) ADD COLUMN \(SQL.identifier(addition.column.name)) \(addition.column.type)
                    """)
            }
            // New columns in the base tables and the triggers, before the values come down; with
            // no new column, the triggers of this version (a package made by an older one).
            let tables = try tracking.install()
            for (name, columns) in Dictionary(grouping: additions, by: \.table) {
                guard let table = tables.first(where: { SQLName($0.name) == SQLName(name) }) else { continue }
                try download(columns.map(\.column.name), of: table, package: package, source: source)
            }
        }
        // Packages made before clipped layers refused their geometry edits get the triggers now.
        let tracked = Set(try tracking.trackedTables().map { SQLName($0.name) })
        let clipped = try PackageMetadata.layerCuts(in: package).filter { $0.value.clipped && tracked.contains(SQLName($0.key)) }
        try tracking.installClipGuards(tables: clipped.keys.sorted())
    }

    /// Copies the source's values of `columns` into the package's rows and base rows.
    private static func download(_ columns: [String], of table: TrackedTable, package: Connection,
                                 source: any SyncSource) throws {
        let g = SQL.identifier(table.globalIDColumn)
        let geometry = try GeoPackageSchema.read(from: package).layer(named: table.name)?.geometryColumn?.name
        let shape = TableShape(name: table.name, keyColumn: table.keyColumn, globalIDColumn: table.globalIDColumn,
                               columns: columns, geometryColumn: geometry)
        let assignments = columns.enumerated().map { "\(SQL.identifier($1)) = ?\($0 + 2)" }.joined(separator: ", ")
        let base = SQL.identifier(SyncSchema.baseTable(for: table.name))
        let ids = try package.query("SELECT \(g) FROM \(SQL.identifier(table.name)) UNION SELECT \(g) FROM \(base)")
            .compactMap { $0[0].stringValue }
        for id in ids {
            guard let row = try source.row(id, in: shape) else { continue }
            let values = try RowValues(row).values
            for target in [SQL.identifier(table.name), base] {
                try package.execute("UPDATE \(target) SET \(assignments) WHERE \(g) = ?1", [.text(id)] + values)
            }
        }
    }

    private static func columns(_ table: String, in connection: Connection) throws -> [Column] {
        try connection.query("SELECT name, type FROM pragma_table_info(?)", [.text(table)]).map {
            Column(name: $0[0].stringValue ?? "", type: $0[1].stringValue ?? "")
        }
    }

    /// One table: additions at the source, else a refusal naming the side.
    static func compare(table: String, package: Connection, source: SourceTable) throws -> [Addition] {
        let inPackage = try columns(table, in: package)
        let atSource = source.columns.map { Column(name: $0.name, type: $0.declaredType) }
        // The base table has the columns tracking was installed with: a column of the package
        // table missing from it was added in the package, not dropped at the source.
        let built = try columns(SyncSchema.baseTable(for: table), in: package)
        func find(_ name: String, _ list: [Column]) -> Column? { list.first { SQLName($0.name) == SQLName(name) } }
        let prefix = "schema of '\(table)' differs between package and source:"
        for column in inPackage {
            let wasBuilt = find(column.name, built)
            guard let now = find(column.name, atSource) else {
                throw SyncError(.schemaChanged, wasBuilt == nil
                    ? "\(prefix) column '\(table).\(column.name)' was added in the package only; the source has no such column (side: package)"
                    : "\(prefix) column '\(table).\(column.name)' is gone at the source (dropped or renamed\(renamedHint(inPackage, atSource))) "
                        + "(side: source); nothing was changed on either side and the package's edits stay pending")
            }
            // A geometry column `create --clip` made Multi (MULTIPOLYGON for a POLYGON) is the same column.
            let promoted = column.type.uppercased() == "MULTI" + now.type.uppercased()
            if now.type.uppercased() != column.type.uppercased() && !promoted {
                let side = wasBuilt.map { $0.type.uppercased() == now.type.uppercased() } == true ? "package" : "source"
                let (from, to) = side == "source" ? (column.type, now.type) : (now.type, column.type)
                throw SyncError(.schemaChanged, """
                    \(prefix) column '\(table).\(column.name)' was retyped from \(from.isEmpty ? "no type" : from) \
                    to \(to.isEmpty ? "no type" : to) \(side == "source" ? "at the source" : "in the package") (side: \(side))
                    """)
            }
        }
        return atSource.filter { find($0.name, inPackage) == nil }.map { Addition(table: table, column: $0) }
    }

    /// The source's columns the package lacks, which a renamed column would be among.
    private static func renamedHint(_ inPackage: [Column], _ atSource: [Column]) -> String {
        let known = Set(inPackage.map { SQLName($0.name) })
        let new = atSource.map(\.name).filter { !known.contains(SQLName($0)) }
        return new.isEmpty ? "" : "; the source has \(new.count == 1 ? "a column" : "columns") the package lacks: \(new.joined(separator: ", "))"
    }
}
