import Geodatabase
import Geometry
import PackageFormat
import SourceDrivers

/// Plans the chosen layers one by one: how each is taken (its mode), its table as the
/// package will hold it, its CRS and the area in that CRS. Gathers on the way the SRS rows
/// the package needs and the area per layer.
struct LayerPlanner {
    let request: ExtractRequest
    let source: any FeatureSource
    let planned: PlannedArea
    /// The relationships between chosen layers.
    let relationships: [Relationship]

    /// The area in each spatial layer's CRS, by layer name.
    private(set) var areas: [String: Geometry] = [:]
    /// The SRS rows the package's layers use, by id.
    private(set) var srsRows: [Int64: SpatialReferenceInfo] = [:]
    /// Layers usually share a CRS: the area is transformed once for each (by PROJ definition).
    private var areaByCRS: [String: Geometry] = [:]

    init(request: ExtractRequest, source: any FeatureSource, planned: PlannedArea, relationships: [Relationship]) {
        self.request = request
        self.source = source
        self.planned = planned
        self.relationships = relationships
    }

    /// The SRS rows, in id order.
    var spatialReferenceSystems: [SpatialReferenceInfo] { srsRows.values.sorted { $0.srsID < $1.srsID } }

    /// - Throws: `ExtractError` (`.layer`, `.crs`) or `GeodatabaseError` (`.filter`) for a layer that cannot
    ///   be taken: no integer primary key (or no table), a refused filter, an unknown CRS.
    mutating func plan(_ layer: FeatureLayer) throws -> LayerPlan {
        guard let primaryKey = layer.schema.primaryKey else {
            throw ExtractError(.layer, "layer \(layer.name) of \(SourceAddress.redacted(request.source)) has no integer primary key")
        }
        var schema = layer.schema
        let filter = try request.filters.first { SQLName($0.layer) == SQLName(layer.name) }
            .map { try $0.parsed(columns: schema.columnNames) }
        var geometry: GeometryColumn?
        if let column = schema.geometry { geometry = try geometryColumn(column, of: layer, schema: &schema) }
        let mode = mode(of: layer)
        let table = PackageTable(name: layer.name, dataType: layer.kind.dataType, identifier: layer.identifier.stringValue,
                                 description: layer.description.stringValue,
                                 createSQL: PackageTableSQL.createTable(layer.name, schema: schema, globalIDColumn: layer.globalIDColumn),
                                 columns: schema.columnNames, primaryKey: primaryKey, geometry: geometry?.info)
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

    /// The geometry column's type (made Multi for `--clip`, in the table's schema too) and
    /// SRS, and the area in the layer's CRS.
    private mutating func geometryColumn(_ g: GeometryColumnInfo, of layer: FeatureLayer,
                                         schema: inout FeatureSchema) throws -> GeometryColumn {
        var typeName = g.geometryTypeName.uppercased()
        if request.clip, typeName == "POLYGON" || typeName == "LINESTRING" {
            // Clipping may cut one part into several: the column is Multi, in its declared type
            // too (GeoPackage requirement 31).
            typeName = "MULTI" + typeName
            guard let index = schema.columnNames.firstIndex(name: SQLName(g.name)) else {
                throw ExtractError(.layer, "layer \(layer.name): geometry column \(g.name) is not among its columns, so it cannot be made \(typeName) for --clip")
            }
            schema.columns[index].declaredType = typeName
        }
        var info = GeometryColumnInfo(name: g.name, geometryTypeName: typeName, srsID: g.srsID, z: g.z, m: g.m)
        let srs = try source.spatialReferenceSystem(id: g.srsID)
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
    private func mode(of layer: FeatureLayer) -> LayerPlan.Mode {
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
