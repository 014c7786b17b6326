/// Relationships between tables, from either of the two places a GeoPackage can declare them:
/// the OGC Related Tables Extension (`gpkgext_relations`, one row per relation, links stored
/// as (base_id, related_id) fid pairs in a mapping table), or our own key-based
/// relationships in `pkgbuild_relationships` (origin table + key column -> destination table
/// + foreign key column, as ArcGIS relationship classes work). Both read as ``Relationship``.

/// How many rows on each side of a relationship may be linked.
public enum Cardinality: String, Sendable, Hashable, CaseIterable {
    case oneToOne = "one-to-one"
    case oneToMany = "one-to-many"
    case manyToMany = "many-to-many"
}

/// One relationship between two tables.
public struct Relationship: Sendable, Hashable {
    /// Where the relationship's links are kept.
    public enum Storage: Sendable, Hashable {
        /// Key-based (`pkgbuild_relationships`): a destination row belongs to the origin rows
        /// whose `originKey` equals its `destinationKey`.
        case keys
        /// Related Tables Extension: links are rows of `mappingTable`, whose `base_id` is the
        /// origin's `originKey` value and `related_id` the destination's `destinationKey`
        /// value (normally both tables' integer primary keys). `relationName` is the
        /// extension's `relation_name` (`features`, `media`, `simple_attributes`,
        /// `attributes`, or an extension's `x-...` name).
        case mappingTable(name: String, relationName: String)
    }

    /// The relationship's name: ours as declared, or the mapping table's name for the extension.
    public var name: String
    public var originTable: String
    public var originKey: String
    public var destinationTable: String
    public var destinationKey: String
    public var cardinality: Cardinality
    public var storage: Storage

    public init(name: String, originTable: String, originKey: String, destinationTable: String,
                destinationKey: String, cardinality: Cardinality, storage: Storage) {
        self.name = name
        self.originTable = originTable
        self.originKey = originKey
        self.destinationTable = destinationTable
        self.destinationKey = destinationKey
        self.cardinality = cardinality
        self.storage = storage
    }

    /// The mapping table of a Related Tables Extension relationship, nil for a key-based one.
    public var mappingTable: String? {
        if case .mappingTable(let name, _) = storage { return name }
        return nil
    }
}

extension Relationship {
    /// The relationship seen from one of its tables: that table and its key, the table and key
    /// at the other end, and which column of a mapping table holds each end's key values.
    public struct End: Sendable, Hashable {
        /// True seen from the origin (the relationship's forward direction).
        public var isOrigin: Bool
        public var table: String
        public var key: String
        public var otherTable: String
        public var otherKey: String

        /// The mapping table's column of this end's key values (Related Tables Extension):
        /// `base_id` for the origin, `related_id` for the destination.
        public var mappingColumn: String { isOrigin ? "base_id" : "related_id" }
        /// The mapping table's column of the other end's key values.
        public var otherMappingColumn: String { isOrigin ? "related_id" : "base_id" }
    }

    /// Both ends: seen from the origin, then from the destination (the same table twice for a
    /// relationship of a table with itself).
    public var ends: [End] {
        [End(isOrigin: true, table: originTable, key: originKey, otherTable: destinationTable, otherKey: destinationKey),
         End(isOrigin: false, table: destinationTable, key: destinationKey, otherTable: originTable, otherKey: originKey)]
    }
}
