/// Editing: update attributes, move a point, replace a geometry, add and delete features.
///
/// Every edit is one transaction of plain SQL on the package's connection (which has the
/// GeoPackage `ST_*` functions), so the package's own triggers (R-tree, change tracking)
/// record it as they would an edit from any other client. Everything is checked before
/// anything is written; a refused edit leaves the package as it was.
import Geodatabase
import Geometry
import SQLite

/// A new geometry for a feature.
public enum GeometryEdit: Sendable, Hashable {
    /// Put a point feature at this position; a point keeps its own Z and M unless this one has them.
    case move(to: Coordinate)
    /// Replace the geometry with this one.
    case replace(Geometry)
}

/// What to change in one feature.
public struct FeatureChange: Sendable, Hashable {
    /// New attribute values by field name (any letter case); `.null` clears a field.
    public var values: [String: FieldValue]
    public var geometry: GeometryEdit?
    /// The CRS of the geometry's coordinates; longitude first for EPSG:4326.
    public var crs: String

    public init(values: [String: FieldValue] = [:], geometry: GeometryEdit? = nil, crs: String = "EPSG:4326") {
        self.values = values
        self.geometry = geometry
        self.crs = crs
    }
}

/// What a delete did.
public struct DeleteResult: Sendable, Hashable {
    /// The feature, then the rows a cascade deleted with it.
    public var deleted: [Feature]
    /// Related rows left in place (all of them without cascade; with it, the origins of the
    /// feature, which a cascade never deletes).
    public var keptRelated: [RelatedFeature]
    /// Related Tables Extension links removed with the rows (a link to nothing is no link).
    public var removedLinks: Int
}

extension OfflinePackage {
    /// Changes a feature's attributes and/or geometry, in one transaction.
    /// - Returns: the feature as stored.
    /// - Throws: ``PackageError``: `unknownLayer`, `unknownFeature`, `unknownField`,
    ///   `readOnlyField`, `wrongType`, `constraintViolation`, `invalidGeometry`,
    ///   `wrongGeometryType`, `outsideAreaOfUse`, `unknownCRS`, `invalidArgument` (a move of
    ///   something that is not a point, an empty change).
    @discardableResult
    public func update(in layer: String, id: FeatureID, _ change: FeatureChange) throws(PackageError) -> Feature {
        try locked { connection in
            let info = try self.layer(named: layer)
            let reader = FeatureReader(layer: info)
            let current = try reader.feature(id, in: connection)
            guard !change.values.isEmpty || change.geometry != nil else {
                throw PackageError(.invalidArgument, "nothing to change in layer '\(info.name)' \(id): give values or a geometry")
            }
            // Refused before the values are checked: no fix to them would make it sync.
            if change.geometry != nil { try refuseIfClipped(info, "a geometry edit", connection: connection) }
            var assignments = try checkedValues(change.values, layer: info, connection: connection)
            if let edit = change.geometry {
                guard let column = info.geometryColumn else {
                    throw PackageError(.invalidArgument, "layer '\(info.name)' is an attribute table: it has no geometry to change")
                }
                let geometry = try newGeometry(edit, replacing: current, layer: info, column: column)
                assignments.append((column.name, .blob(try storable(geometry, crs: change.crs, layer: info, column: column).blob)))
            }
            try connection.withTransaction(.immediate) {
                let set = assignments.map { "\(SQL.identifier($0.0)) = ?" }.joined(separator: ", ")
                try connection.execute("UPDATE \(SQL.identifier(info.name)) SET \(set) WHERE \(SQL.identifier(reader.key)) = ?",
                                       assignments.map(\.1) + [.integer(current.fid)])
            }
            return try reader.feature(.fid(current.fid), in: connection)
        }
    }

    /// Sets attribute values (see ``update(in:id:_:)``).
    @discardableResult
    public func update(in layer: String, id: FeatureID, set values: [String: FieldValue]) throws(PackageError) -> Feature {
        try update(in: layer, id: id, FeatureChange(values: values))
    }

    /// Moves a point feature (see ``update(in:id:_:)``).
    @discardableResult
    public func move(in layer: String, id: FeatureID, to point: Coordinate,
                     crs: String = "EPSG:4326") throws(PackageError) -> Feature {
        try update(in: layer, id: id, FeatureChange(geometry: .move(to: point), crs: crs))
    }

    /// Replaces a feature's geometry (see ``update(in:id:_:)``).
    @discardableResult
    public func replaceGeometry(in layer: String, id: FeatureID, with geometry: Geometry,
                                crs: String = "EPSG:4326") throws(PackageError) -> Feature {
        try update(in: layer, id: id, FeatureChange(geometry: .replace(geometry), crs: crs))
    }

    /// Adds a feature (or an attribute row, with no geometry). Its globalid is made here, so
    /// the returned feature can be asked for again and a retried sync cannot duplicate it.
    /// - Throws: ``PackageError`` as ``update(in:id:_:)``, and `constraintViolation` naming
    ///   the NOT NULL fields without a default that were not given.
    @discardableResult
    public func add(to layer: String, values: [String: FieldValue], geometry: Geometry? = nil,
                    crs: String = "EPSG:4326") throws(PackageError) -> Feature {
        try locked { connection in
            let info = try self.layer(named: layer)
            try refuseIfClipped(info, "an insert", connection: connection)
            var assignments = try checkedValues(values, layer: info, connection: connection)
            if let geometry {
                guard let column = info.geometryColumn else {
                    throw PackageError(.invalidArgument, "layer '\(info.name)' is an attribute table: it takes no geometry")
                }
                assignments.append((column.name, .blob(try storable(geometry, crs: crs, layer: info, column: column).blob)))
            }
            if let g = info.globalIDColumn { assignments.append((g, .text(GlobalID.make()))) }
            let given = Set(assignments.map { SQLName($0.0) })
            let missing = info.fields.filter {
                $0.isNotNull && $0.defaultSQL == nil && $0.primaryKeyIndex == 0 && !given.contains(SQLName($0.name))
            }
            guard missing.isEmpty else {
                let names = missing.map(\.name).joined(separator: ", ")
                throw PackageError(.constraintViolation, "a new row of layer '\(info.name)' needs a value for \(names) (NOT NULL)")
            }
            let fid: Int64 = try connection.withTransaction(.immediate) {
                let columns = assignments.map { SQL.identifier($0.0) }.joined(separator: ", ")
                let placeholders = Array(repeating: "?", count: assignments.count).joined(separator: ", ")
                try connection.execute(assignments.isEmpty
                                       ? "INSERT INTO \(SQL.identifier(info.name)) DEFAULT VALUES"
                                       : "INSERT INTO \(SQL.identifier(info.name)) (\(columns)) VALUES (\(placeholders))",
                                       assignments.map(\.1))
                return connection.lastInsertRowID
            }
            return try FeatureReader(layer: info).feature(.fid(fid), in: connection)
        }
    }

    /// Deletes a feature. Rows related to it stay, and are listed in the result so the caller
    /// can say so; with `cascade`, the rows it is the origin of (its destinations, and theirs)
    /// are deleted too. Related Tables links to deleted rows always go.
    /// - Throws: ``PackageError``: `unknownLayer`, `unknownFeature`.
    @discardableResult
    public func delete(in layer: String, id: FeatureID, cascade: Bool = false) throws(PackageError) -> DeleteResult {
        try locked { connection in
            let info = try self.layer(named: layer)
            try refuseIfClipped(info, "a delete", connection: connection)
            var result = DeleteResult(deleted: [], keptRelated: [], removedLinks: 0)
            try connection.withTransaction(.immediate) {
                var visited = Set<LayerRow>()
                try deleteRow(of: info, id: id, cascade: cascade, visited: &visited, result: &result, connection: connection)
            }
            let deleted = Set(result.deleted.map { LayerRow($0) })
            result.keptRelated.removeAll { deleted.contains(LayerRow($0.feature)) }
            return result
        }
    }

    /// Types a value given as text by its column (`42` for an INTEGER, `true` for a BOOLEAN),
    /// as a form or a command line gives it.
    /// - Throws: ``PackageError``: `unknownLayer`, `unknownField`, `readOnlyField`, `wrongType`.
    public func value(_ text: String, for field: String, in layer: String) throws(PackageError) -> FieldValue {
        try locked { connection in
            let checker = ValueChecker(layer: try self.layer(named: layer), schema: schema, connection: connection)
            return try checker.parse(text, for: try checker.writableField(field))
        }
    }

    // MARK: - Internals

    private func checkedValues(_ values: [String: FieldValue], layer: LayerInfo,
                               connection: Connection) throws -> [(String, FieldValue)] {
        let checker = ValueChecker(layer: layer, schema: schema, connection: connection)
        var seen = Set<SQLName>()
        return try values.sorted { $0.key < $1.key }.map { name, value in
            let field = try checker.writableField(name)
            guard seen.insert(SQLName(field.name)).inserted else {
                throw PackageError(.invalidArgument, "'\(field.name)' of layer '\(layer.name)' is given twice")
            }
            return (field.name, try checker.checked(value, for: field))
        }
    }

    private func newGeometry(_ edit: GeometryEdit, replacing current: Feature, layer: LayerInfo,
                             column: GeometryColumnInfo) throws -> Geometry {
        switch edit {
        case .replace(let geometry):
            return geometry
        case .move(let to):
            // A point moved keeps its Z and M unless the move gives them: a well stays at its depth.
            func moved(_ old: Point) -> Point {
                Point(Coordinate(x: to.x, y: to.y, z: to.z ?? old.coordinate?.z, m: to.m ?? old.coordinate?.m))
            }
            if case .multiPoint(let multi)? = current.geometry, multi.points.count == 1 {
                return .multiPoint(MultiPoint([moved(multi.points[0])]))
            }
            if case .point(let old)? = current.geometry { return .point(moved(old)) }
            if current.geometry == nil && column.geometryTypeName.uppercased() == "POINT" { return .point(Point(to)) }
            let kind = current.geometry?.type.name ?? column.geometryTypeName
            throw PackageError(.invalidArgument,
                               "a move places a point; layer '\(layer.name)' \(FeatureID.fid(current.fid)) is a \(kind): give a whole geometry instead")
        }
    }

    private func deleteRow(of layer: LayerInfo, id: FeatureID, cascade: Bool, visited: inout Set<LayerRow>,
                           result: inout DeleteResult, connection: Connection) throws {
        let reader = FeatureReader(layer: layer)
        // A cascade into a clipped layer is refused in words, not by its trigger.
        try refuseIfClipped(layer, "a delete", connection: connection)
        let feature = try reader.feature(id, in: connection)
        guard visited.insert(LayerRow(feature)).inserted else { return }
        let ends = try relationshipEnds(of: layer, fid: feature.fid, connection: connection)
        let related = try relatedRows(ends: ends, connection: connection)
        result.deleted.append(feature)
        for end in ends where !end.keyValue.isNull {
            if let link = end.link {
                try connection.execute("DELETE FROM \(SQL.identifier(link.table)) WHERE \(SQL.identifier(link.column)) = ?", [end.keyValue])
                result.removedLinks += connection.changes
            }
        }
        try connection.execute("DELETE FROM \(SQL.identifier(layer.name)) WHERE \(SQL.identifier(reader.key)) = ?", [.integer(feature.fid)])
        for row in related {
            if cascade && row.direction == .forward, let other = schema.layer(named: row.feature.layer) {
                if visited.contains(LayerRow(layer: other.name, fid: row.feature.fid)) { continue }
                try deleteRow(of: other, id: .fid(row.feature.fid), cascade: true, visited: &visited,
                              result: &result, connection: connection)
            } else if !result.keptRelated.contains(row) {
                result.keptRelated.append(row)
            }
        }
    }
}

/// A feature's row, its layer named as SQLite compares names: what a cascading delete has seen.
private struct LayerRow: Hashable {
    var layer: SQLName
    var fid: Int64

    init(layer: String, fid: Int64) {
        self.layer = SQLName(layer)
        self.fid = fid
    }

    init(_ feature: Feature) {
        self.init(layer: feature.layer, fid: feature.fid)
    }
}
