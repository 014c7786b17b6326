/// What a GeoPackage column's declared type holds, as the seam's base type.
import Geometry
import SourceDrivers

extension BaseType {
    /// The base type of a GeoPackage column type: the GeoPackage's own types by name, the
    /// geometry types, and SQLite's affinity rules for the rest.
    init(geoPackageType declared: String) {
        let type = declared.uppercased()
        if DeclaredGeometryType(name: type, z: 2, m: 2) != nil || type == "GEOMETRY" {
            self = .geometry
            return
        }
        switch type {
        case "BOOLEAN": self = .boolean
        case "DATE": self = .date
        case "DATETIME": self = .datetime
        default:
            if type.contains("INT") {
                self = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                self = .text
            } else if type.contains("BLOB") || type.isEmpty {
                self = .blob
            } else {
                self = .real
            }
        }
    }
}
