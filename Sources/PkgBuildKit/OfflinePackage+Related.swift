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
            return try relatedRows(of: info, id: id, connection: connection)
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

    func relationshipEnds(of layer: LayerInfo, id: FeatureID, connection: Connection) throws -> [RelationshipEnd] {
        let reader = FeatureReader(layer: layer)
        _ = try reader.feature(id, in: connection)  // unknownFeature before anything else
        let (idSQL, idArgument) = try reader.condition(for: id)
        func keyValue(_ column: String) throws -> SQLiteValue {
            try connection.scalar("SELECT t.\(SQL.identifier(column)) FROM \(SQL.identifier(layer.name)) t WHERE \(idSQL)", [idArgument]) ?? .null
        }
        var ends: [RelationshipEnd] = []
        let name = layer.name.lowercased()
        for relationship in schema.relationships {
            if relationship.originTable.lowercased() == name, let other = schema.layer(named: relationship.destinationTable) {
                let destination = SQL.identifier(relationship.destinationKey)
                var end = RelationshipEnd(relationship: relationship, direction: .forward, other: other,
                                          condition: "t.\(destination) = ?",
                                          keyValue: try keyValue(relationship.originKey), link: nil)
                if let mapping = relationship.mappingTable {
                    end.condition = "t.\(destination) IN (SELECT related_id FROM \(SQL.identifier(mapping)) WHERE base_id = ?)"
                    end.link = (mapping, "base_id")
                }
                ends.append(end)
            }
            if relationship.destinationTable.lowercased() == name, let other = schema.layer(named: relationship.originTable) {
                let origin = SQL.identifier(relationship.originKey)
                var end = RelationshipEnd(relationship: relationship, direction: .backward, other: other,
                                          condition: "t.\(origin) = ?",
                                          keyValue: try keyValue(relationship.destinationKey), link: nil)
                if let mapping = relationship.mappingTable {
                    end.condition = "t.\(origin) IN (SELECT base_id FROM \(SQL.identifier(mapping)) WHERE related_id = ?)"
                    end.link = (mapping, "related_id")
                }
                ends.append(end)
            }
        }
        return ends
    }

    func relatedRows(of layer: LayerInfo, id: FeatureID, connection: Connection) throws -> [RelatedFeature] {
        var related: [RelatedFeature] = []
        for end in try relationshipEnds(of: layer, id: id, connection: connection) where !end.keyValue.isNull {
            guard end.other.primaryKey != nil else { continue }
            for feature in try FeatureReader(layer: end.other).features(where: end.condition, [end.keyValue], in: connection) {
                related.append(RelatedFeature(relationship: end.relationship.name, cardinality: end.relationship.cardinality,
                                              direction: end.direction, feature: feature))
            }
        }
        return related
    }
}
