/// Related rows: every relationship the package declares (Related Tables Extension mapping
/// tables and key-based relationships), followed both ways from a feature.
import Geodatabase
import SQLite

/// A row related to a feature, with the relationship that links them.
public struct RelatedFeature: Sendable, Hashable {
    /// Which end of the relationship the feature asked about is.
    public enum Direction: String, Sendable, Hashable {
        /// The feature is the origin; the related row is a destination (park -> its visitors).
        case forward
        /// The feature is the destination; the related row is its origin (visitors -> park).
        case backward
    }

    public var relationship: String
    public var cardinality: Cardinality
    public var direction: Direction
    public var feature: Feature

    public init(relationship: String, cardinality: Cardinality, direction: Direction, feature: Feature) {
        self.relationship = relationship
        self.cardinality = cardinality
        self.direction = direction
        self.feature = feature
    }
}

extension OfflinePackage {
    /// The rows related to a feature through every relationship, in both directions, in the
    /// order the relationships are declared, then by fid.
    /// - Throws: ``PackageError``: `unknownLayer`, `unknownFeature`.
    public func related(in layer: String, id: FeatureID) throws(PackageError) -> [RelatedFeature] {
        try locked { connection in
            let info = try self.layer(named: layer)
            let feature = try FeatureReader(layer: info).feature(id, in: connection)  // unknownFeature first
            return try relatedRows(ends: relationshipEnds(of: info, fid: feature.fid, connection: connection), connection: connection)
        }
    }

    /// The rows related to `feature` (see ``related(in:id:)``).
    public func related(to feature: Feature) throws(PackageError) -> [RelatedFeature] {
        try related(in: feature.layer, id: .fid(feature.fid))
    }

    // MARK: - Internals

    /// One end of a relationship as seen from a feature: the other table, how to select its
    /// related rows, and the key value of the feature they hang on.
    struct RelationshipEnd {
        var relationship: Relationship
        var direction: RelatedFeature.Direction
        var other: LayerInfo
        /// SQL condition on the other table (alias `t`) with one `?` for `keyValue`.
        var condition: String
        var keyValue: SQLiteValue
        /// The mapping table's link rows of the feature: column and value, for deletes.
        var link: (table: String, column: String)?
    }

    /// The ends of every relationship the feature of that fid takes part in, either way round.
    func relationshipEnds(of layer: LayerInfo, fid: Int64, connection: Connection) throws -> [RelationshipEnd] {
        let (idSQL, idArgument) = try FeatureReader(layer: layer).condition(for: .fid(fid))
        func keyValue(_ column: String) throws -> SQLiteValue {
            try connection.scalar("SELECT t.\(SQL.identifier(column)) FROM \(SQL.identifier(layer.name)) t WHERE \(idSQL)", [idArgument]) ?? .null
        }
        var ends: [RelationshipEnd] = []
        let name = SQLName(layer.name)
        for relationship in schema.relationships {
            // Seen from the origin (forward, the mapping's base_id) or the destination (backward).
            for side in relationship.ends where SQLName(side.table) == name {
                guard let other = schema.layer(named: side.otherTable) else { continue }
                let otherKey = SQL.identifier(side.otherKey)
                var end = RelationshipEnd(relationship: relationship, direction: side.isOrigin ? .forward : .backward,
                                          other: other, condition: "t.\(otherKey) = ?", keyValue: try keyValue(side.key),
                                          link: nil)
                if let mapping = relationship.mappingTable {
                    end.condition = "t.\(otherKey) IN (SELECT \(side.otherMappingColumn) FROM \(SQL.identifier(mapping)) "
                        + "WHERE \(side.mappingColumn) = ?)"
                    end.link = (mapping, side.mappingColumn)
                }
                ends.append(end)
            }
        }
        return ends
    }

    /// The rows at the other end of `ends`.
    func relatedRows(ends: [RelationshipEnd], connection: Connection) throws -> [RelatedFeature] {
        var related: [RelatedFeature] = []
        for end in ends where !end.keyValue.isNull {
            guard end.other.primaryKey != nil else { continue }
            for feature in try FeatureReader(layer: end.other).features(where: end.condition, [end.keyValue], in: connection) {
                related.append(RelatedFeature(relationship: end.relationship.name, cardinality: end.relationship.cardinality,
                                              direction: end.direction, feature: feature))
            }
        }
        return related
    }
}
