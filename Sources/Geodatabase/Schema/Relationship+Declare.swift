/// Declaring key-based relationships (`pkgbuild source relate`): origin table + key column
/// -> destination table + foreign key column, with a cardinality, stored in
/// `pkgbuild_relationships` (see `SyncSchema`). Works on any GeoPackage (a source, or a
/// package that copies its source's relationships).
import SQLite

extension Relationship {
    /// Declares (or redeclares, replacing the definition of the same name) a key-based
    /// relationship, after checking that both tables and both columns exist, that the keys are
    /// two columns of one kind (never a column related to itself, a TEXT key to an INTEGER
    /// one, or a geometry), and that the data keeps the cardinality (a unique origin key
    /// unless many-to-many, a unique destination key for one-to-one).
    /// - Parameters:
    ///   - name: defaults to `<origin>_<destination>`.
    /// - Returns: the relationship as stored (table and column names as the schema spells them).
    /// - Throws: ``GeodatabaseError``: `unknownTable` / `unknownColumn` naming what is missing,
    ///   `invalidArgument` for an empty name or naming every problem the checks found.
    @discardableResult
    public static func declare(originTable: String, originKey: String, destinationTable: String,
                               destinationKey: String, cardinality: Cardinality = .oneToMany,
                               name: String? = nil, in connection: Connection) throws -> Relationship {
        try connection.withTransaction(.immediate) {
            let originEnd = try resolve(originTable, originKey, connection)
            let destinationEnd = try resolve(destinationTable, destinationKey, connection)
            let (origin, originColumn) = (originEnd.table, originEnd.field.name)
            let (destination, destinationColumn) = (destinationEnd.table, destinationEnd.field.name)
            let problems = try problems(origin: originEnd, destination: destinationEnd, cardinality: cardinality,
                                        in: connection)
            guard problems.isEmpty else {
                throw GeodatabaseError(.invalidArgument, "\(connection.path): \(originEnd.name) -> \(destinationEnd.name) "
                    + "(\(cardinality.rawValue)) is refused: " + problems.joined(separator: "; "))
            }
            let relationshipName = name ?? "\(origin)_\(destination)"
            guard !relationshipName.isEmpty else {
                throw GeodatabaseError(.invalidArgument, "a relationship needs a non-empty name")
            }
            try connection.execute(SyncSchema.relationshipsDDL)
            try OwnTables.register(in: connection, side: .source)
            try connection.execute("""
                INSERT INTO pkgbuild_relationships (name, origin_table, origin_key, destination_table, destination_key,
                  cardinality) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (name) DO UPDATE SET origin_table = ?2, origin_key = ?3, destination_table = ?4,
                  destination_key = ?5, cardinality = ?6
                WHERE (origin_table, origin_key, destination_table, destination_key, cardinality)
                  IS NOT (?2, ?3, ?4, ?5, ?6)
                """, [.text(relationshipName), .text(origin), .text(originColumn), .text(destination),
                      .text(destinationColumn), .text(cardinality.rawValue)])
            return Relationship(name: relationshipName, originTable: origin, originKey: originColumn,
                                destinationTable: destination, destinationKey: destinationColumn,
                                cardinality: cardinality, storage: .keys)
        }
    }

    /// Removes a key-based relationship.
    /// - Throws: ``GeodatabaseError`` (`notRegistered`) when none has that name.
    public static func remove(named name: String, in connection: Connection) throws {
        try connection.withTransaction(.immediate) {
            guard try tableExists(SyncSchema.relationshipsTable, in: connection),
                  try connection.scalar("SELECT 1 FROM pkgbuild_relationships WHERE name = ?", [.text(name)]) != nil
            else {
                throw GeodatabaseError(.notRegistered, "\(connection.path): no relationship named '\(name)'")
            }
            try connection.execute("DELETE FROM pkgbuild_relationships WHERE name = ?", [.text(name)])
        }
    }

    private static func resolve(_ table: String, _ column: String,
                                _ connection: Connection) throws -> RelationshipEnd {
        guard let tableName = try canonicalTableName(table, in: connection) else {
            throw GeodatabaseError(.unknownTable, "\(connection.path): no table named '\(table)'")
        }
        guard let field = try readFields(of: tableName, in: connection)
            .first(where: { SQLName($0.name) == SQLName(column) }) else {
            throw GeodatabaseError(.unknownColumn, "\(connection.path): table '\(tableName)' has no column '\(column)'")
        }
        return RelationshipEnd(table: tableName, field: field)
    }
}
