/// The values a package hands out: features with their attributes and geometry, and the
/// identity a feature is asked for by. All plain `Sendable` values, free to cross threads
/// (to a UI, to a background sync).
import Foundation
import Geodatabase
import Geometry
import SQLite

/// A column's value: `.null`, `.integer`, `.real`, `.text` or `.blob`, with literals
/// (`"10,000-50,000"`, `2025`, `nil`) so app code reads naturally.
public typealias FieldValue = SQLiteValue

/// One named value of a feature.
public struct Attribute: Sendable, Hashable {
    public var name: String
    public var value: FieldValue

    public init(name: String, value: FieldValue) {
        self.name = name
        self.value = value
    }
}

/// A row of a feature or attribute table.
public struct Feature: Sendable, Hashable {
    /// The layer (table) name as the package spells it.
    public var layer: String
    /// The row's integer key in this package (local: the source's fid differs).
    public var fid: Int64
    /// The row's identity across the source and every package, when the layer has one.
    public var globalID: String?
    /// Every column but the key, the globalid and the geometry, in table order.
    public var attributes: [Attribute]
    /// The geometry in the layer's CRS; nil for attribute tables and NULL geometries.
    public var geometry: Geometry?

    public init(layer: String, fid: Int64, globalID: String?, attributes: [Attribute], geometry: Geometry?) {
        self.layer = layer
        self.fid = fid
        self.globalID = globalID
        self.attributes = attributes
        self.geometry = geometry
    }

    /// The value of an attribute (any letter case, as SQLite compares column names), nil
    /// when the feature has no such attribute.
    public subscript(name: String) -> FieldValue? {
        if let exact = attributes.first(where: { $0.name == name }) { return exact.value }
        return attributes.first { SQLName($0.name) == SQLName(name) }?.value
    }

    /// How to ask for this feature again: its globalid when it has one, else its fid.
    public var id: FeatureID {
        globalID.map(FeatureID.globalID) ?? .fid(fid)
    }
}

/// How a feature is named: by globalid (any letter case, braces optional) or by the
/// package's integer fid.
public enum FeatureID: Sendable, Hashable, CustomStringConvertible {
    case fid(Int64)
    case globalID(String)

    /// Reads `42` as a fid, and `{8A3B...}` or `8a3b...` as a globalid; nil for anything else.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let fid = Int64(trimmed) {
            self = .fid(fid)
        } else if GlobalID.isWellFormed(trimmed) {
            self = .globalID(trimmed)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .fid(let fid): "fid \(fid)"
        case .globalID(let id): "globalid \(id)"
        }
    }

    /// The UUID's 32 hex digits and 4 dashes, upper case, without braces: the form two
    /// spellings of one globalid share.
    static func normalized(_ globalID: String) -> String {
        GlobalID.normalized(globalID) ?? globalID.uppercased()
    }
}
