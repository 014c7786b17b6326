import Diagnostics

/// The Geometry module's one error type: what went wrong, in words a person can act on.
public typealias GeometryError = KindedError<GeometryErrorKind>

/// The kinds of ``GeometryError``.
public enum GeometryErrorKind: Sendable, Hashable {
    /// Bytes or text that are not a valid encoding (truncated WKB, bad magic, bad WKT...).
    case malformedInput
    /// A valid encoding of something this module does not handle.
    case unsupported
    /// A geometry that breaks a rule the operation needs (invalid polygon, wrong type...).
    case invalidGeometry
    /// A CRS definition PROJ does not know, or a missing PROJ database.
    case unknownCRS
    /// A coordinate PROJ cannot transform (outside the CRS's area of use, ...).
    case transformFailed
    /// A failure reported by GEOS or PROJ itself.
    case library
}
