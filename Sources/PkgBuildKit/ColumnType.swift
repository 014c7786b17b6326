import Foundation

/// The type a column's declaration asks for, read the way the GeoPackage spec lists its data
/// types (BOOLEAN, TINYINT ... INTEGER, FLOAT, DOUBLE, REAL, TEXT(n), BLOB(n), DATE,
/// DATETIME), with SQLite's affinity rules for anything else.
enum ColumnType: Equatable {
    case boolean
    case integer(name: String, range: ClosedRange<Int64>)
    case real
    case text(maxLength: Int?)
    case blob
    case date
    case dateTime
    /// No type worth enforcing (an empty declaration, NUMERIC, an unknown word).
    case any

    init(declared: String) {
        let upper = declared.uppercased().trimmingCharacters(in: .whitespaces)
        let base = upper.split(separator: "(").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let length = upper.split(separator: "(").dropFirst().first.flatMap { Int($0.filter(\.isNumber)) }
        switch base {
        case "BOOLEAN": self = .boolean
        case "TINYINT": self = .integer(name: base, range: -128...127)
        case "SMALLINT": self = .integer(name: base, range: -32768...32767)
        case "MEDIUMINT": self = .integer(name: base, range: -2_147_483_648...2_147_483_647)
        case "INT", "INTEGER": self = .integer(name: base, range: Int64.min...Int64.max)
        case "FLOAT", "DOUBLE", "REAL": self = .real
        case "TEXT": self = .text(maxLength: length)
        case "BLOB": self = .blob
        case "DATE": self = .date
        case "DATETIME": self = .dateTime
        default:
            // SQLite's affinity rules, in its order (section 3.1 of "Datatypes In SQLite").
            if upper.contains("INT") {
                self = .integer(name: base, range: Int64.min...Int64.max)
            } else if upper.contains("CHAR") || upper.contains("CLOB") || upper.contains("TEXT") {
                self = .text(maxLength: nil)
            } else if upper.contains("REAL") || upper.contains("FLOA") || upper.contains("DOUB") {
                self = .real
            } else {
                self = .any
            }
        }
    }

    /// How the type reads in messages.
    var name: String {
        switch self {
        case .boolean: "BOOLEAN"
        case .integer(let name, _): name
        case .real: "REAL"
        case .text(let maxLength): maxLength.map { "TEXT(\($0))" } ?? "TEXT"
        case .blob: "BLOB"
        case .date: "DATE"
        case .dateTime: "DATETIME"
        case .any: "any type"
        }
    }
}
