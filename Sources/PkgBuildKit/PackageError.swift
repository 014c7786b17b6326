import Diagnostics

/// The one error type of PkgBuildKit: every public call throws only this, so an app can
/// `catch let error as PackageError` (or use typed throws) and switch on ``kind``.
///
/// Errors about what the caller asked (a layer that does not exist, a value outside a
/// domain) are kept apart from failures underneath (``Kind/storage``, ``Kind/geometry``,
/// ``Kind/sync``), whose ``message`` carries the library's own words.
public typealias PackageError = KindedError<PackageErrorKind>

/// The kinds of ``PackageError``.
public enum PackageErrorKind: Sendable, Hashable {
    /// The path is not an offline package (no `data.gpkg`) or its data is not a GeoPackage.
    case notAPackage
    /// No feature or attribute table of that name.
    case unknownLayer
    /// No row with that globalid or fid in the layer.
    case unknownFeature
    /// The layer has no column of that name.
    case unknownField
    /// A value of the wrong type for its column (text for an INTEGER, 3.5 for a
    /// MEDIUMINT, text too long for TEXT(n)...).
    case wrongType
    /// A value its column refuses: NULL for NOT NULL, outside an enum or a range, not
    /// matching a glob. The message lists what is allowed.
    case constraintViolation
    /// A column that is not the caller's to write (the key, the globalid, the geometry
    /// through `set`).
    case readOnlyField
    /// A geometry of a type the layer does not take (a point for a polygon layer).
    case wrongGeometryType
    /// An invalid geometry (self-intersection, too few points...), an empty one, or one
    /// with Z or M where the layer allows none.
    case invalidGeometry
    /// Coordinates outside the area of use of their CRS or of the layer's CRS.
    case outsideAreaOfUse
    /// A CRS PROJ does not know.
    case unknownCRS
    /// An argument that makes no sense (a negative tolerance, a move of a polygon...).
    case invalidArgument
    /// SQLite or the GeoPackage's content failed underneath.
    case storage
    /// GEOS or PROJ failed underneath.
    case geometry
    /// Synchronisation with the source failed.
    case sync
}
