/// The CRS definition PROJ is given for a row of `gpkg_spatial_ref_sys`, the way `create`
/// names a layer's CRS: `EPSG:code` for EPSG systems (PROJ's own definition), else the row's
/// WKT.
import Geodatabase

enum SpatialReferenceDefinition {
    static func of(_ srs: SpatialReferenceInfo) -> String {
        srs.organization.uppercased() == "EPSG" ? "EPSG:\(srs.organizationCoordsysID)" : srs.definition
    }
}
