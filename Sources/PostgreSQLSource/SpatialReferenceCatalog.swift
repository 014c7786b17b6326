/// The coordinate systems of a PostGIS database (`spatial_ref_sys`), as the seam describes them.
import Geodatabase
import PostgreSQL

enum SpatialReferenceCatalog {
    /// The system of that SRID, nil when the database does not define it (SRID 0 included).
    static func system(id: Int64, on connection: Connection) throws -> SpatialReferenceInfo? {
        guard let row = try connection.queryFirst(
            "SELECT auth_name, auth_srid, srtext FROM spatial_ref_sys WHERE srid = $1", [.text(String(id))]) else { return nil }
        let organization = row.string(0) ?? "NONE"
        let code = Int64(try row.int(1) ?? Int(id))
        let definition = row.string(2).flatMap { $0.isEmpty ? nil : $0 } ?? "undefined"
        return SpatialReferenceInfo(srsID: id, name: Self.name(of: definition) ?? "\(organization):\(code)",
                                    organization: organization, organizationCoordsysID: code, definition: definition)
    }

    /// The name a WKT gives its system: the first quoted text (`GEOGCS["WGS 84",…`).
    static func name(of wkt: String) -> String? {
        guard let open = wkt.firstIndex(of: "\"") else { return nil }
        let rest = wkt[wkt.index(after: open)...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
