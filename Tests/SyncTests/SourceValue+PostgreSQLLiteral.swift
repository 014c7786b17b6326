/// Values written into a PostGIS source by psql, as an office would type them.
import Foundation
import Geometry
import SourceDrivers
import TestSupport

extension SourceValue {
    /// The value as a PostgreSQL literal (a geometry through ST_GeomFromWKB with its SRID).
    /// - Throws: for text that is not UTF-8, which a psql session cannot send to a UTF8 database.
    func postgreSQLLiteral() throws -> String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)::double precision"
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .textBytes: throw TestSupportError("psql cannot send text that is not UTF-8")
        case .blob(let bytes): return "'\\x\(Self.hex(bytes))'::bytea"
        case .geometry(let geometry): return "ST_GeomFromWKB('\\x\(Self.hex(geometry.wkb))'::bytea, \(geometry.srsID))"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The PostgreSQL type a test adds for a column of this base type.
    static func postgreSQLType(of baseType: BaseType) -> String {
        switch baseType {
        case .integer: "integer"
        case .real: "double precision"
        case .text: "text"
        case .blob: "bytea"
        case .boolean: "boolean"
        case .date: "date"
        case .datetime: "timestamptz"
        case .geometry: "geometry"
        }
    }
}
