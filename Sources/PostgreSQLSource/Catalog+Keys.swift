/// The key constraints of a schema's tables, from pg_constraint: primary keys, UNIQUE
/// constraints and foreign keys, each with its columns in the constraint's order.
import PostgreSQL
import SourceDrivers

extension Catalog {
    /// One key constraint: its kind (`p`, `u`, `f`), columns, and for a foreign key the table
    /// and columns it references and its actions.
    struct KeyConstraint {
        var kind: String
        var columns: [String] = []
        var referencedTable: String?
        var referencedColumns: [String] = []
        var onUpdate: String?
        var onDelete: String?
    }

    /// The key constraints of each table, in the order of their names.
    struct Keys {
        var byTable: [String: [KeyConstraint]] = [:]

        /// `table` with its primary key, UNIQUE sets (one-column ones marked on the column) and
        /// foreign keys.
        func apply(to table: CatalogTable) -> CatalogTable {
            var table = table
            for key in byTable[table.name] ?? [] {
                switch key.kind {
                case "p":
                    table.primaryKey = key.columns
                    // SQLite numbers rows by a column declared exactly INTEGER PRIMARY KEY (a
                    // MEDIUMINT key would be a second key beside the rowid): the package's fid.
                    if let name = table.integerPrimaryKey, let index = table.columns.firstIndex(where: { $0.name == name }) {
                        table.columns[index].feature.declaredType = "INTEGER"
                    }
                case "u" where key.columns.count == 1:
                    if let index = table.columns.firstIndex(where: { $0.name == key.columns[0] }) {
                        table.columns[index].feature.isUnique = true
                    }
                case "u":
                    table.uniqueColumnSets.append(key.columns)
                case "f":
                    guard let referenced = key.referencedTable else { continue }
                    table.foreignKeys.append(ForeignKey(columns: key.columns, table: referenced, referencedColumns: key.referencedColumns,
                                                        onUpdate: key.onUpdate, onDelete: key.onDelete))
                default:
                    continue
                }
            }
            return table
        }
    }

    /// A row per constraint column; a foreign key's referenced table only when it is in the
    /// same schema (the package holds no other).
    static func constraintColumns(_ parameters: [Parameter], on connection: Connection) throws -> Keys {
        var keys = Keys()
        var current: (table: String, name: String)?
        try connection.forEachRow("""
            SELECT c.relname, k.conname, k.contype, a.attname, fa.attname,
            CASE WHEN fc.relnamespace = c.relnamespace THEN fc.relname END, k.confupdtype, k.confdeltype
            FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            CROSS JOIN LATERAL unnest(k.conkey, k.confkey) WITH ORDINALITY AS u(attnum, fattnum, position)
            JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum
            LEFT JOIN pg_attribute fa ON fa.attrelid = k.confrelid AND fa.attnum = u.fattnum
            LEFT JOIN pg_class fc ON fc.oid = k.confrelid
            WHERE k.contype IN ('p', 'u', 'f') AND \(tableCondition)
            ORDER BY c.relname, k.conname, u.position
            """, parameters) { row in
            let table = row.string(0) ?? "", name = row.string(1) ?? ""
            if current?.table != table || current?.name != name {
                current = (table, name)
                keys.byTable[table, default: []].append(KeyConstraint(
                    kind: row.string(2) ?? "", referencedTable: row.string(5),
                    onUpdate: action(row.string(6)), onDelete: action(row.string(7))))
            }
            let last = keys.byTable[table]!.count - 1
            keys.byTable[table]![last].columns.append(row.string(3) ?? "")
            if let referenced = row.string(4) { keys.byTable[table]![last].referencedColumns.append(referenced) }
        }
        return keys
    }

    /// pg_constraint's action code as SQLite spells the action; nil for NO ACTION.
    private static func action(_ code: String?) -> String? {
        switch code {
        case "r": "RESTRICT"
        case "c": "CASCADE"
        case "n": "SET NULL"
        case "d": "SET DEFAULT"
        default: nil
        }
    }
}
