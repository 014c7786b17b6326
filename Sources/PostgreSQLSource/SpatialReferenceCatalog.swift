/// The coordinate systems of a PostGIS database (`spatial_ref_sys`), as the seam describes them:
/// one reading for `create` and for `sync`, so both sides name a system alike.
import Geodatabase
import PostgreSQL

enum SpatialReferenceCatalog {
    /// The system of that SRID, nil when the database does not define it (no row, or a row
    /// without a WKT definition).
    static func system(id: Int64, on connection: Connection) throws -> SpatialReferenceInfo? {
        guard let row = try connection.queryFirst(
            "SELECT auth_name, auth_srid, srtext FROM spatial_ref_sys WHERE srid = $1", [.text(String(id))]),
              let definition = row.string(2), !definition.isEmpty else { return nil }
        return SpatialReferenceInfo(srsID: id, name: name(ofWKT: definition) ?? "srid \(id)",
                                    organization: row.string(0) ?? "NONE",
                                    organizationCoordsysID: Int64(try row.int(1) ?? Int(id)), definition: definition)
    }

    /// The name a WKT definition gives its system (`GEOGCS["WGS 84",…` is `WGS 84`).
    static func name(ofWKT wkt: String) -> String? {
        guard let open = wkt.firstIndex(of: "\"") else { return nil }
        let rest = wkt[wkt.index(after: open)...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
