import Geodatabase
import Geometry
import PackageFormat

/// Plans the chosen layers one by one: how each is taken (its mode), its table as the
/// package will hold it, its CRS and the area in that CRS. Gathers on the way the SRS rows
/// the package needs and the area per layer.
struct LayerPlanner {
    let request: ExtractRequest
    let catalog: GeoPackageSourceCatalog
    let planned: PlannedArea
    /// The relationships between chosen layers.
    let relationships: [Relationship]

    /// The area in each spatial layer's CRS, by layer name.
    private(set) var areas: [String: Geometry] = [:]
    /// The SRS rows the package's layers use, by id.
    private(set) var srsRows: [Int64: SpatialReferenceInfo] = [:]
    /// Layers usually share a CRS: the area is transformed once for each (by PROJ definition).
    private var areaByCRS: [String: Geometry] = [:]

    init(request: ExtractRequest, catalog: GeoPackageSourceCatalog, planned: PlannedArea, relationships: [Relationship]) {
        self.request = request
        self.catalog = catalog
        self.planned = planned
        self.relationships = relationships
    }

    /// The SRS rows, in id order.
    var spatialReferenceSystems: [SpatialReferenceInfo] { srsRows.values.sorted { $0.srsID < $1.srsID } }

    /// - Throws: `ExtractError` (`.layer`, `.crs`) or `GeodatabaseError` (`.filter`) for a layer that cannot
    ///   be taken: no integer primary key, no table, a refused filter, an unknown CRS.
    mutating func plan(_ layer: LayerInfo) throws -> LayerPlan {
        guard let primaryKey = layer.primaryKey else {
            throw ExtractError(.layer, "layer \(layer.name) of \(request.source) has no integer primary key")
        }
        var createSQL = try catalog.createTableSQL(of: layer)
        let filter = try request.filters.first { SQLName($0.layer) == SQLName(layer.name) }
            .map { try $0.parsed(columns: layer.fields.map(\.name)) }
        var geometry: GeometryColumn?
        if let column = layer.geometryColumn { geometry = try geometryColumn(column, of: layer, createSQL: &createSQL) }
        let mode = mode(of: layer)
        let table = PackageTable(name: layer.name, dataType: layer.kind.dataType, identifier: layer.identifier,
                                 description: layer.description, createSQL: createSQL,
                                 columns: layer.fields.map(\.name), primaryKey: primaryKey, geometry: geometry?.info)
        let reprojected = geometry.map { $0.info.srsID != $0.sourceSRSID } ?? false
        let cut = LayerCut(clipped: request.clip && mode == .spatial, filter: filter?.expression,
                           reprojectedFrom: reprojected ? geometry?.sourceCRS : nil, schemaOnly: mode == .schemaOnly,
                           spatial: mode == .spatial, relatedOnly: mode == .relatedOnly)
        let packageCRSName = reprojected ? planned.packageSRS.map(Self.crsName) : geometry?.sourceCRS
        return LayerPlan(info: layer, table: table, mode: mode, filter: filter, cut: cut,
                         sourceCRS: geometry?.sourceCRS, packageCRS: packageCRSName,
                         sourceCRSDefinition: geometry?.sourceCRSDefinition,
                         packageCRSDefinition: reprojected ? request.crs : nil)
    }

    /// A layer's geometry column as the package holds it, with what it was in the source.
    private struct GeometryColumn {
        var info: GeometryColumnInfo
        var sourceSRSID: Int64
        /// `EPSG:n` (or `srs_id:n`); nil when the source has no row for its SRS.
        var sourceCRS: String?
        var sourceCRSDefinition: String
    }

    /// The geometry column's type (made Multi for `--clip`, in `createSQL` too) and SRS, and
    /// the area in the layer's CRS.
    private mutating func geometryColumn(_ g: GeometryColumnInfo, of layer: LayerInfo, createSQL: inout String) throws -> GeometryColumn {
        var typeName = g.geometryTypeName.uppercased()
        if request.clip, typeName == "POLYGON" || typeName == "LINESTRING" {
            // Clipping may cut one part into several: the column is Multi, in its SQL too.
            typeName = "MULTI" + typeName
            guard let retyped = CreateTableSQL.retyping(column: g.name, to: typeName, in: createSQL) else {
                throw ExtractError(.layer, "layer \(layer.name): cannot find the type of geometry column \(g.name) in its CREATE TABLE statement to make it \(typeName) for --clip")
            }
            createSQL = retyped
        }
        var info = GeometryColumnInfo(name: g.name, geometryTypeName: typeName, srsID: g.srsID, z: g.z, m: g.m)
        let srs = catalog.schema.spatialReferenceSystem(id: g.srsID)
        if let srs { srsRows[srs.srsID] = srs }
        let definition = srs?.projDefinition ?? ""
        let layerCRS: CoordinateReferenceSystem
        do { layerCRS = try CoordinateReferenceSystem(definition, context: planned.proj) } catch {
            throw ExtractError(.crs, "layer \(layer.name): its CRS (srs_id \(g.srsID)) is unknown to PROJ (\(error))")
        }
        if let known = areaByCRS[definition] {
            areas[layer.name] = known
        } else {
            let area = try planned.transformed(into: layerCRS)
            areaByCRS[definition] = area
            areas[layer.name] = area
        }
        if let packageSRS = planned.packageSRS, packageSRS.srsID != g.srsID {
            info.srsID = packageSRS.srsID
            srsRows[packageSRS.srsID] = packageSRS
        }
        return GeometryColumn(info: info, sourceSRSID: g.srsID, sourceCRS: srs.map(Self.crsName),
                              sourceCRSDefinition: definition)
    }

    /// Schema only when asked; features by the area; an attribute table whole, or only its
    /// related rows (with `--related`) when it takes part in a relationship.
    private func mode(of layer: LayerInfo) -> LayerPlan.Mode {
        let name = SQLName(layer.name)
        let schemaOnly = request.schemaOnly.contains(name: name)
        let related = relationships.contains { SQLName($0.originTable) == name || SQLName($0.destinationTable) == name }
        return schemaOnly ? .schemaOnly
            : layer.kind == .features ? .spatial
            : related ? (request.includeRelated ? .relatedOnly : .schemaOnly)
            : .whole
    }

    /// `EPSG:n`, or `srs_id:n` for an SRS without an EPSG code.
    private static func crsName(_ srs: SpatialReferenceInfo) -> String {
        srs.organization.uppercased() == "EPSG" ? "EPSG:\(srs.organizationCoordsysID)" : "srs_id:\(srs.srsID)"
    }
}
