/// A layer a feature source offers `create`: a table of features or attributes, described
/// in neutral terms.
import Geometry

/// One layer of a feature source.
public struct FeatureLayer: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Rows with a geometry column: chosen by the area.
        case features
        /// Rows without one: taken whole, or for their relationships.
        case attributes

        /// The GeoPackage `data_type` of a package table of this kind.
        public var dataType: String { self == .features ? "features" : "attributes" }
    }

    /// The name as the source spells it.
    public var name: String
    public var kind: Kind
    /// The layer's title and description; `.textBytes` when the source's are not UTF-8
    /// (copied byte for byte), `.null` when it has none.
    public var identifier: SourceValue
    public var description: SourceValue
    public var schema: FeatureSchema
    /// The global id column (`globalid` in any letter case) that sync matches rows by, when
    /// the layer has one.
    public var globalIDColumn: String?

    public init(name: String, kind: Kind, identifier: SourceValue = .null, description: SourceValue = .null,
                schema: FeatureSchema, globalIDColumn: String? = nil) {
        (self.name, self.kind, self.identifier, self.description, self.schema, self.globalIDColumn)
            = (name, kind, identifier, description, schema, globalIDColumn)
    }
}
