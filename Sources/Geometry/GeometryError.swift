/// The Geometry module's one error type: what went wrong, in words a person can act on.
public struct GeometryError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
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

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
