import Geometry
import SQLite

extension GeoPackage {
    /// Registers the SQL functions that GeoPackage triggers call, as GDAL defines them:
    ///
    /// - `ST_IsEmpty(geom)`, `ST_MinX`, `ST_MaxX`, `ST_MinY`, `ST_MaxY` (R-tree spatial index
    ///   triggers, in every GDAL-written GeoPackage with a spatial index);
    /// - `ST_GeometryType(geom)` and `GPKG_IsAssignable(expected, actual)` (geometry type
    ///   triggers extension);
    /// - `ST_SRID(geom)` (SRS id triggers extension).
    ///
    /// Without them, any insert or update of a feature table with an R-tree fails with
    /// "no such function: ST_IsEmpty". Call it on every connection that writes a GeoPackage.
    ///
    /// Like GDAL's, the functions answer NULL for a NULL or non-blob argument, and the
    /// envelope functions answer NULL for an empty geometry. Unlike GDAL's, which answer NULL
    /// for a malformed blob too, ours fail the statement naming the function and the problem,
    /// so a broken geometry is refused rather than quietly left out of the index.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses a registration.
    public static func registerFunctions(on connection: Connection) throws {
        try connection.createFunction("ST_IsEmpty", argumentCount: 1, deterministic: true, innocuous: true) { args in
            guard case .blob(let bytes) = args[0] else { return .null }
            return .init(try GeoPackageBinary.isEmpty(bytes))
        }
        let bounds: [(String, (Envelope) -> Double)] = [
            ("ST_MinX", \.minX), ("ST_MaxX", \.maxX), ("ST_MinY", \.minY), ("ST_MaxY", \.maxY),
        ]
        for (name, bound) in bounds {
            try connection.createFunction(name, argumentCount: 1, deterministic: true, innocuous: true) { args in
                guard case .blob(let bytes) = args[0],
                      let envelope = try GeoPackageBinary.envelope(of: bytes) else { return .null }
                return .real(bound(envelope))
            }
        }
        try connection.createFunction("ST_GeometryType", argumentCount: 1, deterministic: true, innocuous: true) { args in
            guard case .blob(let bytes) = args[0] else { return .null }
            return .text(try GeoPackageBinary(bytes: bytes).geometry.type.name)
        }
        try connection.createFunction("ST_SRID", argumentCount: 1, deterministic: true, innocuous: true) { args in
            guard case .blob(let bytes) = args[0] else { return .null }
            return .integer(Int64(try GeoPackageBinary(bytes: bytes).srsID))
        }
        try connection.createFunction("GPKG_IsAssignable", argumentCount: 2, deterministic: true, innocuous: true) { args in
            guard case .text(let expected) = args[0], case .text(let actual) = args[1] else { return .integer(0) }
            return .init(isAssignable(expected: expected, actual: actual))
        }
    }

    /// GeoPackage's geometry type hierarchy as GDAL applies it in its geometry type triggers:
    /// a column of a type accepts that type, `GEOMETRY` accepts everything, and
    /// `GEOMETRYCOLLECTION` accepts the three multi types. Names compare case-insensitively.
    static func isAssignable(expected: String, actual: String) -> Bool {
        let expected = expected.uppercased(), actual = actual.uppercased()
        if expected == actual || expected == "GEOMETRY" { return true }
        return expected == "GEOMETRYCOLLECTION" && ["MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON"].contains(actual)
    }
}
