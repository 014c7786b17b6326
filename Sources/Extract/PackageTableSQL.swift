/// The `CREATE TABLE` statement of a package table, written from the source's neutral schema
/// (whatever database it came from): each column with its GeoPackage declared type, the
/// integer key, NOT NULL, UNIQUE, DEFAULT and COLLATE, then the CHECK, multi-column UNIQUE and
/// foreign key constraints.
import Foundation
import SourceDrivers
import SQLite

enum PackageTableSQL {
    /// - Parameter globalIDColumn: the layer's global id, which is never NOT NULL in the
    ///   package whatever the source says: the package's own trigger gives a row inserted
    ///   without one its id after the insert (QGIS, QField and GDAL insert without it).
    static func createTable(_ name: String, schema: FeatureSchema, globalIDColumn: String? = nil) -> String {
        var columns = schema.columns
        for index in columns.indices where columns[index].name.lowercased() == globalIDColumn?.lowercased() {
            columns[index].isNotNull = false
        }
        var definitions = columns.map { column(of: $0, schema: schema) }
        definitions += schema.checks.map { "CHECK (\($0))" }
        definitions += schema.uniqueColumnSets.map { "UNIQUE (\($0.map(SQL.identifier).joined(separator: ", ")))" }
        definitions += schema.foreignKeys.map(foreignKey)
        return "CREATE TABLE \(SQL.identifier(name)) (\(definitions.joined(separator: ", ")))"
    }

    private static func column(of column: FeatureColumn, schema: FeatureSchema) -> String {
        var parts = [SQL.identifier(column.name)]
        if !column.declaredType.isEmpty { parts.append(column.declaredType) }
        if column.name == schema.primaryKey {
            parts.append(schema.primaryKeyAutoincrements ? "PRIMARY KEY AUTOINCREMENT" : "PRIMARY KEY")
        }
        if column.isNotNull { parts.append("NOT NULL") }
        if column.isUnique { parts.append("UNIQUE") }
        if let value = column.defaultSQL { parts.append("DEFAULT " + defaultTerm(value)) }
        if let collation = column.collation { parts.append("COLLATE " + SQL.identifier(collation)) }
        return parts.joined(separator: " ")
    }

    /// A default as SQLite takes it after `DEFAULT`: a literal or keyword as it is, any other
    /// expression in parentheses (SQLite reports `DEFAULT (1 + 2)` as `1 + 2`).
    static func defaultTerm(_ sql: String) -> String {
        let upper = sql.uppercased()
        let keywords: Set<String> = ["NULL", "TRUE", "FALSE", "CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"]
        if keywords.contains(upper) || isQuotedLiteral(sql) || isSignedNumber(sql) { return sql }
        return "(\(sql))"
    }

    private static func isQuotedLiteral(_ sql: String) -> Bool {
        var body = Substring(sql)
        if let first = body.first, first == "X" || first == "x" { body = body.dropFirst() }
        guard body.count >= 2, body.first == "'", body.last == "'" else { return false }
        // No lone quote inside: the whole text is one literal, not 'a' || 'b'.
        return !body.dropFirst().dropLast().replacingOccurrences(of: "''", with: "").contains("'")
    }

    private static func isSignedNumber(_ sql: String) -> Bool {
        var body = Substring(sql)
        if let first = body.first, first == "+" || first == "-" { body = body.dropFirst() }
        guard let first = body.first, first.isNumber || first == "." else { return false }
        return body.allSatisfy { $0.isHexDigit || ".xX+-".contains($0) }
    }

    private static func foreignKey(_ key: ForeignKey) -> String {
        var text = "FOREIGN KEY (\(key.columns.map(SQL.identifier).joined(separator: ", "))) REFERENCES \(SQL.identifier(key.table))"
        if !key.referencedColumns.isEmpty { text += " (\(key.referencedColumns.map(SQL.identifier).joined(separator: ", ")))" }
        if let action = key.onUpdate { text += " ON UPDATE \(action)" }
        if let action = key.onDelete { text += " ON DELETE \(action)" }
        return text
    }
}
