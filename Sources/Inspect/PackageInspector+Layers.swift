import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite

extension PackageInspector {
    /// Reads every feature and attribute table of data.gpkg in one pass each, checking its
    /// gpkg_contents extent, its R-tree and the validity of its geometries.
    static func readLayers(_ db: Connection, manifest: PackageManifest, options: Options,
                           warnings: inout [PackageInspection.Warning]) throws -> [PackageInspection.Layer] {
        if try db.scalar("PRAGMA application_id")?.int64Value != 1_196_444_487 {
            warnings.append(.init(.applicationID, "data.gpkg does not carry the GeoPackage application id (0x47504B47)"))
        }
        let cuts = try PackageMetadata.layerCuts(in: db)
        let pending = pendingEdits(db)
        let geos = try GEOSContext()
        var layers: [PackageInspection.Layer] = []
        for row in try db.query("""
            SELECT c.table_name, c.data_type, g.geometry_type_name, g.srs_id, g.column_name,
                   s.organization, s.organization_coordsys_id, c.min_x, c.min_y, c.max_x, c.max_y
            FROM gpkg_contents c LEFT JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
            LEFT JOIN gpkg_spatial_ref_sys s ON s.srs_id = g.srs_id
            WHERE c.data_type IN ('features', 'attributes') ORDER BY c.rowid
            """) {
            guard let name = row[0].stringValue else { continue }
            let count = Int(try db.scalar("SELECT count(*) FROM \(SQL.identifier(name))")?.int64Value ?? 0)
            var layer = PackageInspection.Layer(
                name: name, dataType: row[1].stringValue ?? "", geometryType: row[2].stringValue,
                crs: row[3].int64Value.map { srsID in
                    row[5].stringValue?.uppercased() == "EPSG" ? "EPSG:\(row[6].int64Value ?? srsID)" : "srs_id:\(srsID)"
                },
                srsID: row[3].int64Value, count: count, extent: nil, declaredExtent: nil,
                pendingEdits: pending.map { $0[SQLName(name)] ?? .init() },
                cut: cuts[name] ?? manifest.layers.first { $0.name == name }?.cut,
                checkedGeometries: 0, invalidGeometries: 0)
            if let x0 = row[7].doubleValue, let y0 = row[8].doubleValue, let x1 = row[9].doubleValue, let y1 = row[10].doubleValue {
                layer.declaredExtent = Envelope(minX: x0, minY: y0, maxX: x1, maxY: y1)
            }
            if let column = row[4].stringValue {
                try scanGeometries(db, layer: &layer, column: column, options: options, geos: geos, warnings: &warnings)
            }
            layers.append(layer)
        }
        return layers
    }

    /// One pass over a feature table joined with its R-tree: the data extent, R-tree rows
    /// missing or out of step, and GEOS validity of all or an even sample of the geometries.
    static func scanGeometries(_ db: Connection, layer: inout PackageInspection.Layer, column: String, options: Options,
                               geos: GEOSContext, warnings: inout [PackageInspection.Warning]) throws {
        let name = layer.name
        let rtreeName = GeometryColumnInfo.rtreeName(table: name, column: column)
        let hasRTree = try tableExists(rtreeName, in: db)
        if !hasRTree {
            warnings.append(.init(.rtreeMissing, "layer \(name): no spatial index (\(rtreeName) is missing)"))
        }
        let t = SQL.identifier(name), g = SQL.identifier(column), r = SQL.identifier(rtreeName)
        let sql = hasRTree
            ? "SELECT t.rowid, t.\(g), r.minx, r.maxx, r.miny, r.maxy FROM \(t) t LEFT JOIN \(r) r ON r.id = t.rowid"
            : "SELECT t.rowid, t.\(g) FROM \(t) t"
        // Every step-th row is checked, so a sample is spread over the whole table.
        let step = max(1, (layer.count + options.validityLimit - 1) / max(1, options.validityLimit))
        var extent: Envelope?
        var indexed = 0, notIndexed = 0, boxMismatches = 0
        var firstNotIndexed: Int64?, firstMismatch: Int64?
        var invalid: [(fid: Int64, reason: String)] = []
        var invalidCount = 0, checked = 0, index = 0
        try db.forEachRow(sql) { s in
            defer { index += 1 }
            guard let blob = s.blob(at: 1) else { return }
            let fid = s.int64(at: 0)
            let envelope: Envelope?
            do { envelope = try GeoPackageBinary.envelope(of: blob) } catch {
                invalidCount += 1
                if invalid.count < 3 { invalid.append((fid, "does not decode: \(error)")) }
                return
            }
            if let e = envelope {
                if extent == nil { extent = e } else { extent?.expand(toInclude: e) }
                if hasRTree {
                    if s.isNull(at: 2) {
                        notIndexed += 1
                        if firstNotIndexed == nil { firstNotIndexed = fid }
                    } else {
                        indexed += 1
                        let box = Envelope(minX: s.double(at: 2), minY: s.double(at: 4), maxX: s.double(at: 3), maxY: s.double(at: 5))
                        if !rtreeBox(box, matches: e) {
                            boxMismatches += 1
                            if firstMismatch == nil { firstMismatch = fid }
                        }
                    }
                }
            }
            guard index % step == 0 else { return }
            checked += 1
            do {
                let geometry = try GeoPackageBinary(bytes: blob).geometry
                let validity = try geos.validity(geometry)
                if !validity.isValid {
                    invalidCount += 1
                    if invalid.count < 3 { invalid.append((fid, validity.reason ?? "invalid")) }
                }
            } catch {
                invalidCount += 1
                if invalid.count < 3 { invalid.append((fid, "does not decode: \(error)")) }
            }
        }
        layer.extent = extent
        layer.checkedGeometries = checked
        layer.invalidGeometries = invalidCount
        if invalidCount > 0 {
            let sample = step > 1 ? " (of \(checked) checked, a sample of every \(step)th row)" : ""
            let examples = invalid.map { "fid \($0.fid): \($0.reason)" }.joined(separator: "; ")
            warnings.append(.init(.invalidGeometry, "layer \(name): \(invalidCount) invalid geometr\(invalidCount == 1 ? "y" : "ies")\(sample): \(examples)"))
        }
        if hasRTree {
            let rtreeRows = Int(try db.scalar("SELECT count(*) FROM \(r)")?.int64Value ?? 0)
            let orphans = rtreeRows - indexed
            if notIndexed > 0 || orphans > 0 {
                var parts: [String] = []
                if notIndexed > 0 { parts.append("\(notIndexed) geometr\(notIndexed == 1 ? "y is" : "ies are") not in it (first fid \(firstNotIndexed ?? 0))") }
                if orphans > 0 { parts.append("it has \(orphans) entr\(orphans == 1 ? "y" : "ies") for no geometry") }
                warnings.append(.init(.rtreeCount, "layer \(name): R-tree \(rtreeName) is out of step with the table: "
                    + parts.joined(separator: ", ") + " (\(rtreeRows) entries for \(indexed + notIndexed) geometries)"))
            }
            if boxMismatches > 0 {
                warnings.append(.init(.rtreeEnvelope, "layer \(name): \(boxMismatches) R-tree entr\(boxMismatches == 1 ? "y differs" : "ies differ") "
                    + "from the geometry's envelope (first fid \(firstMismatch ?? 0))"))
            }
        }
        checkDeclaredExtent(layer, warnings: &warnings)
    }

    /// An R-tree keeps 32-bit floats rounded outwards: equal to the envelope within one float's precision.
    static func rtreeBox(_ box: Envelope, matches e: Envelope) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= max(abs(a), abs(b)) * 3e-7 + 1e-30 }
        return close(box.minX, e.minX) && close(box.minY, e.minY) && close(box.maxX, e.maxX) && close(box.maxY, e.maxY)
    }

    /// gpkg_contents' extent should be the data's; it may be absent (the spec allows NULL).
    static func checkDeclaredExtent(_ layer: PackageInspection.Layer, warnings: inout [PackageInspection.Warning]) {
        guard let declared = layer.declaredExtent, let data = layer.extent else { return }
        let scale = max(1, abs(data.minX), abs(data.maxX), abs(data.minY), abs(data.maxY))
        let tolerance = scale * 1e-9
        let sides = [declared.minX - data.minX, declared.minY - data.minY, declared.maxX - data.maxX, declared.maxY - data.maxY]
        guard sides.contains(where: { abs($0) > tolerance }) else { return }
        let outside = data.minX < declared.minX - tolerance || data.minY < declared.minY - tolerance
            || data.maxX > declared.maxX + tolerance || data.maxY > declared.maxY + tolerance
        warnings.append(.init(.contentsExtent, "layer \(layer.name): gpkg_contents declares the extent \(format(declared)) "
            + "but the data's is \(format(data))" + (outside ? "; data lies outside the declared extent" : "")))
    }

    static func format(_ e: Envelope) -> String {
        [e.minX, e.minY, e.maxX, e.maxY].map { String(format: "%.9g", $0) }.joined(separator: ",")
    }

    /// Pending local edits by table and operation, as sync would upload them (an
    /// update that put every value back is no edit); nil when the package tracks no changes.
    static func pendingEdits(_ db: Connection) -> [SQLName: PackageInspection.PendingEdits]? {
        guard (try? tableExists(SyncSchema.editsTable, in: db)) == true else { return nil }
        var result: [SQLName: PackageInspection.PendingEdits] = [:]
        do {
            try PackageChangeTracking(connection: db).forEachPendingChange { change in
                var edits = result[SQLName(change.table)] ?? .init()
                switch change.operation {
                case .insert: edits.inserts += 1
                case .update: edits.updates += 1
                case .delete: edits.deletes += 1
                }
                result[SQLName(change.table)] = edits
            }
        } catch {
            // A change log sync cannot read: count its rows as they stand.
            result = [:]
            for row in (try? db.query("SELECT table_name, operation, count(*) FROM pkgbuild_edits GROUP BY 1, 2")) ?? [] {
                let table = SQLName(row[0].stringValue ?? ""), n = Int(row[2].int64Value ?? 0)
                var edits = result[table] ?? .init()
                switch row[1].stringValue {
                case "insert": edits.inserts += n
                case "delete": edits.deletes += n
                default: edits.updates += n
                }
                result[table] = edits
            }
        }
        return result
    }
}
