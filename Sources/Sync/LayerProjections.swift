/// Layers `create` reprojected (`--crs`): their geometries are in the package's CRS, the
/// source's are in the layer's own. Downloaded geometries are transformed into the package's
/// CRS the way `create` transformed them; an edited geometry goes up transformed back into the
/// source's CRS; an unedited one never goes up (reconciling happens in the package's CRS, where
/// the base is, so a geometry nobody touched is equal to its base and only changed columns are
/// sent).
import Geodatabase
import Geometry
import SQLite
import SourceDrivers

/// The transformations of the reprojected tables of one sync.
///
/// - Important: Holds a PROJ and a GEOS context: one owner at a time.
final class LayerProjections {
    private struct Projection {
        var transformer: Transformer
        var sourceSRSID: Int32
        var packageSRSID: Int32
        /// Source -> package (as `create` took the layer, unclipped) and back.
        var toPackage: LayerGeometryPath
        var toSource: LayerGeometryPath
    }

    private let proj: PROJContext
    private let geos: GEOSContext
    /// By table name; only tables whose package CRS is not the source's.
    private var projections: [SQLName: Projection] = [:]

    /// - Throws: ``SyncError`` (`unsupportedLayer`) naming the layer when a CRS is unknown to
    ///   PROJ or PROJ has no way between them.
    init(tables: [SyncTable], package: GeoPackageSchema, source: any SyncSource, geos: GEOSContext, proj: PROJContext) throws {
        self.proj = proj
        self.geos = geos
        for table in tables where table.geometryColumn != nil {
            guard let packageID = table.packageSRSID, let sourceID = table.sourceSRSID,
                  table.cut.reprojectedFrom != nil || packageID != sourceID else { continue }
            guard let packageSRS = package.spatialReferenceSystem(id: packageID),
                  let sourceSRS = try source.spatialReferenceSystem(id: sourceID) else {
                throw SyncError(.unsupportedLayer, """
                    layer '\(table.name)': srs_id \(packageID) in the package or \(sourceID) at the source is not in \
                    gpkg_spatial_ref_sys
                    """)
            }
            let from = sourceSRS.projDefinition, to = packageSRS.projDefinition
            do {
                let sourceCRS = try CoordinateReferenceSystem(from, context: proj)
                let packageCRS = try CoordinateReferenceSystem(to, context: proj)
                if sourceCRS.identity == packageCRS.identity && packageID == sourceID { continue }
                let transformer = try Transformer(from: sourceCRS, to: packageCRS, context: proj)
                let any = DeclaredGeometryType(type: .geometry, z: 2, m: 2)
                projections[table.sqlName] = Projection(
                    transformer: transformer,
                    sourceSRSID: Int32(truncatingIfNeeded: sourceID), packageSRSID: Int32(truncatingIfNeeded: packageID),
                    toPackage: LayerGeometryPath(context: geos, clipArea: nil, transform: { try transformer.transform($0) },
                                                 declared: table.packageGeometryType ?? any),
                    toSource: LayerGeometryPath(context: geos, clipArea: nil,
                                                transform: { try transformer.transform($0, direction: .inverse) },
                                                declared: table.sourceGeometryType ?? any))
            } catch {
                throw SyncError(.unsupportedLayer, """
                    layer '\(table.name)' was reprojected from \(sourceSRS.authorityCode) to \(packageSRS.authorityCode) \
                    when the package was built, and PROJ cannot transform between them: \(error)
                    """)
            }
        }
    }

    /// True when the table's geometries are in another CRS in the package than at the source.
    func isReprojected(_ table: SyncTable) -> Bool {
        projections[table.sqlName] != nil
    }

    /// A source geometry blob as the package stores it; other values unchanged.
    /// - Throws: ``SyncError`` (`unsupportedLayer`) naming the table when the blob cannot be
    ///   read or PROJ cannot transform it.
    func toPackage(_ value: SQLiteValue, of table: SyncTable) throws -> SQLiteValue {
        guard let p = projections[table.sqlName] else { return value }
        return try transform(value, of: table, with: p, direction: .forward, srsID: p.packageSRSID)
    }

    /// A package geometry blob as the source stores it; other values unchanged.
    /// - Throws: ``SyncError`` (`unsupportedLayer`) naming the table when the blob cannot be
    ///   read or PROJ cannot transform it.
    func toSource(_ value: SQLiteValue, of table: SyncTable) throws -> SQLiteValue {
        guard let p = projections[table.sqlName] else { return value }
        return try transform(value, of: table, with: p, direction: .inverse, srsID: p.sourceSRSID)
    }

    /// A source row with its geometry in the package's CRS, to reconcile with the package's
    /// row and base.
    func inPackageCRS(_ row: RowValues, of table: SyncTable) throws -> RowValues {
        try mapGeometry(of: row, table: table, toPackage)
    }

    /// What the source must do, with the geometry it receives in the source's CRS.
    func inSourceCRS(_ action: SourceAction, of table: SyncTable) throws -> SourceAction {
        switch action {
        case .none, .delete: return action
        case .insert(let row): return .insert(try mapGeometry(of: row, table: table, toSource))
        case .update(let values): return .update(try mapGeometry(of: values, table: table, toSource))
        }
    }

    private func mapGeometry(of row: RowValues, table: SyncTable,
                             _ convert: (SQLiteValue, SyncTable) throws -> SQLiteValue) throws -> RowValues {
        guard isReprojected(table), let column = table.geometryColumn,
              let index = row.columns.firstIndex(name: SQLName(column)) else { return row }
        var values = row.values
        values[index] = try convert(values[index], table)
        return RowValues(columns: row.columns, values: values)
    }

    /// The transformation of a reprojected table into the package's CRS, for the download's
    /// geometry path (which clips first); nil for a table that is not reprojected.
    func forward(of table: SyncTable) -> ((Geometry) throws -> Geometry)? {
        guard let p = projections[table.sqlName] else { return nil }
        return { try p.transformer.transform($0) }
    }

    /// The package's srs_id of a reprojected table.
    func packageSRSID(of table: SyncTable) -> Int32? {
        projections[table.sqlName]?.packageSRSID
    }

    private func transform(_ value: SQLiteValue, of table: SyncTable, with p: Projection,
                           direction: Transformer.Direction, srsID: Int32) throws -> SQLiteValue {
        guard case .blob(let bytes) = value else { return value }
        let (from, to) = direction == .forward ? ("the source's CRS", "the package's") : ("the package's CRS", "the source's")
        do {
            let decoded = try GeoPackageBinary(bytes: bytes)
            if decoded.isEmpty {
                return .blob(GeoPackageBinary(geometry: decoded.geometry, srsID: srsID, envelopeKind: .none).encoded())
            }
            // The path `create` took: transformed, repaired where that bent a polygon, in the
            // column's declared type.
            let path = direction == .forward ? p.toPackage : p.toSource
            guard let geometry = try path.stored(decoded.geometry) else { return .null }
            return .blob(GeoPackageBinary(geometry: geometry, srsID: srsID, envelopeKind: decoded.envelopeKind).encoded())
        } catch {
            throw SyncError(.unsupportedLayer, "layer '\(table.name)': cannot transform a geometry from \(from) into \(to): \(error)")
        }
    }
}
