/// `pkgbuild source enable` on a PostgreSQL source: the `pkgbuild` schema, a uuid global id on
/// every tracked table (added, or an existing one adopted) and the triggers keeping the change
/// log, all in one transaction: a refusal anywhere leaves the database as it was. Running it
/// again changes nothing.
import PostgreSQL
import SourceDrivers

/// A table `enable` tracks, and how it came by its global id.
public struct EnabledTable: Sendable, Hashable {
    public enum GlobalIDAction: String, Sendable, Hashable {
        case added, adopted
        /// Tracked before this run.
        case existing
    }

    public var name: String
    public var keyColumn: String
    public var globalIDColumn: String
    public var action: GlobalIDAction
}

/// Enables a PostgreSQL source.
public struct SourceEnabler {
    private let database: SourceDatabase

    /// Connects to `address`.
    /// - Throws: ``SourceError`` as the driver's connection does.
    public init(address: String) throws {
        database = try SourceDatabase.connect(address)
    }

    /// The source without its password: `PostgreSQL (host=… dbname=… schema=…)`.
    public var displayName: String { database.displayName }

    /// Tracks `tables` (every table of the schema when nil) in one transaction.
    /// - Throws: ``SourceError`` (`unusable`, `notFound`) naming the table and the problem: no
    ///   usable key, a global id column that is not a uuid or holds a value twice, a table that
    ///   is not there, a permission the user lacks. Nothing is installed then.
    public func enable(tables: [String]?) throws -> [EnabledTable] {
        do {
            return try database.connection.withTransaction {
                let tracked = try trackedTables()
                for statement in TrackingSchema.ddl { try database.connection.execute(statement) }
                let candidates = try EnableCandidates.read(database, named: tables)
                return try candidates.map { try enable($0, trackedBefore: tracked[$0.name]) }
            }
        } catch let error as PostgreSQLError where error.isInsufficientPrivilege {
            throw SourceError(.unusable, "source \(database.displayName): no permission to enable change tracking "
                + "(the schema pkgbuild, a column, an index or triggers): \(error.message); nothing was changed")
        } catch let error as PostgreSQLError {
            throw SourceError(.unusable, "source \(database.displayName): \(error.message); nothing was changed")
        }
    }

    /// Table name -> its global id column, of the tables this schema tracks already.
    private func trackedTables() throws -> [String: String] {
        let exists = try database.connection.queryFirst("SELECT to_regclass('pkgbuild.tables') IS NOT NULL")?.bool(0) ?? false
        guard exists else { return [:] }
        var tracked: [String: String] = [:]
        for row in try database.connection.query("SELECT table_name, globalid_column FROM pkgbuild.tables WHERE table_schema = $1",
                                                 [.text(database.schema)]) {
            tracked[row.string(0) ?? ""] = row.string(1) ?? ""
        }
        return tracked
    }

    private func enable(_ table: EnableCandidate, trackedBefore: String?) throws -> EnabledTable {
        let connection = database.connection
        let qualified = database.qualified(table.name)
        var action = EnabledTable.GlobalIDAction.existing
        var globalID = table.globalIDColumn ?? "globalid"
        if trackedBefore == nil {
            if let existing = table.globalIDColumn {
                try adopt(existing, of: table)
                action = .adopted
            } else {
                try connection.execute("ALTER TABLE \(qualified) ADD COLUMN globalid uuid NOT NULL DEFAULT gen_random_uuid()")
                action = .added
                globalID = "globalid"
            }
            try connection.execute("""
                CREATE UNIQUE INDEX IF NOT EXISTS \(PostgreSQLQuoting.identifier(Self.indexName(table.name))) \
                ON \(qualified) (\(PostgreSQLQuoting.identifier(globalID)))
                """)
        }
        let columns = table.columns + (action == .added ? ["globalid"] : [])
        let triggers = ChangeLogTriggers(schema: database.schema, table: table.name, globalIDColumn: globalID, columns: columns)
        for statement in triggers.statements { try connection.execute(statement) }
        _ = try connection.execute("""
            INSERT INTO pkgbuild.tables (table_schema, table_name, key_column, globalid_column) VALUES ($1, $2, $3, $4)
            ON CONFLICT (table_schema, table_name) DO NOTHING
            """, [.text(database.schema), .text(table.name), .text(table.keyColumn), .text(globalID)])
        return EnabledTable(name: table.name, keyColumn: table.keyColumn, globalIDColumn: globalID, action: action)
    }

    /// An existing uuid column becomes the global id: its empty cells get new ids; a value
    /// held twice would make two rows one, so it is refused.
    private func adopt(_ column: String, of table: EnableCandidate) throws {
        let quoted = PostgreSQLQuoting.identifier(column)
        let qualified = database.qualified(table.name)
        let duplicates = try database.connection.queryFirst("""
            SELECT count(*) FROM (SELECT 1 FROM \(qualified) WHERE \(quoted) IS NOT NULL GROUP BY \(quoted) HAVING count(*) > 1) AS d
            """)?.int(0) ?? 0
        guard duplicates == 0 else {
            throw SourceError(.unusable, "source \(database.displayName): column \(column) of table \(table.name) holds "
                + "\(duplicates) \(duplicates == 1 ? "value" : "values") more than once, so it cannot be the global id; "
                + "make its values unique first; nothing was changed")
        }
        try database.connection.execute("UPDATE \(qualified) SET \(quoted) = gen_random_uuid() WHERE \(quoted) IS NULL")
        try database.connection.execute("ALTER TABLE \(qualified) ALTER COLUMN \(quoted) SET DEFAULT gen_random_uuid()")
    }

    /// `<table>_pkgbuild_globalid`, within PostgreSQL's 63 bytes.
    static func indexName(_ table: String) -> String {
        String(decoding: Array(table.utf8.prefix(40)), as: UTF8.self) + "_pkgbuild_globalid"
    }
}
