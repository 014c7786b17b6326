import Foundation
import CPROJ

/// A coordinate reference system known to PROJ: from an authority code (`EPSG:3857`), WKT
/// (1 or 2), or a PROJ string (`+proj=utm +zone=6 +datum=WGS84`).
///
/// - Important: Not thread-safe: it belongs to the ``PROJContext`` it was made in. To use the
///   same CRS on another worker, make it again there from ``definition`` or ``identity``.
public final class CoordinateReferenceSystem {
    let object: PROJObject
    var context: PROJContext { object.context }

    /// The text this CRS was made from.
    public let definition: String

    /// - Throws: `GeometryError(.unknownCRS)` naming `definition` when PROJ does not know it
    ///   or it is not a CRS, or saying where PROJ looked when its database is missing.
    public init(_ definition: String, context: PROJContext) throws {
        let trimmed = definition.trimmingCharacters(in: .whitespacesAndNewlines)
        // A bare PROJ string describes an operation; +type=crs asks for the CRS it implies.
        let text = trimmed.hasPrefix("+") && !trimmed.contains("+type=crs") ? trimmed + " +type=crs" : trimmed
        context.resetMessages()
        // Returns a new object we own, or NULL when the text is not understood.
        guard let pointer = proj_create(context.handle, text) else {
            throw Self.unknown(definition, context: context)
        }
        object = PROJObject(context: context, owning: pointer)
        self.definition = definition
        guard proj_is_crs(pointer) != 0 else {
            throw GeometryError(.unknownCRS, "\"\(definition)\" is not a coordinate reference system (PROJ reads it as \(name ?? "an operation"))")
        }
    }

    /// The CRS with this EPSG code.
    public convenience init(epsg code: Int, context: PROJContext) throws {
        try self.init("EPSG:\(code)", context: context)
    }

    private static func unknown(_ definition: String, context: PROJContext) -> GeometryError {
        let errno = proj_context_errno(context.handle)
        let detail = context.detail(errno: errno)
        if context.databasePath == nil { return context.databaseNotFound() }
        let shown = definition.count > 80 ? definition.prefix(80) + "..." : Substring(definition)
        return GeometryError(.unknownCRS, "unknown CRS \"\(shown)\": \(detail)")
    }

    /// PROJ's name for the CRS, such as `WGS 84 / Pseudo-Mercator`.
    public var name: String? {
        proj_get_name(object.pointer).map { String(cString: $0) }  // NULL when unnamed
    }

    /// The authority and code, such as `("EPSG", "3857")`, when the CRS carries one.
    public var authority: (name: String, code: String)? {
        // Both return NULL when the object has no identifier.
        guard let name = proj_get_id_auth_name(object.pointer, 0), let code = proj_get_id_code(object.pointer, 0) else {
            return nil
        }
        return (String(cString: name), String(cString: code))
    }

    /// The EPSG code, when the CRS is identified as an EPSG one.
    public var epsgCode: Int? {
        guard let authority, authority.name.uppercased() == "EPSG" else { return nil }
        return Int(authority.code)
    }

    /// A string naming this CRS the same way every time it is made: `AUTHORITY:CODE` when it
    /// has one, else its one-line WKT2.
    public var identity: String {
        if let authority { return "\(authority.name):\(authority.code)" }
        return (try? wkt(.wkt2)) ?? definition
    }

    /// The WKT dialects PROJ can write.
    public enum WKTVersion: Sendable {
        /// WKT1 as GDAL writes it: the `definition` of GeoPackage 1.3's `gpkg_spatial_ref_sys`.
        case wkt1GDAL
        /// WKT2:2019 (ISO 19162:2019): GeoPackage's `definition_12_063` extension column.
        case wkt2
    }

    /// The CRS as one line of WKT.
    /// - Throws: `GeometryError(.library)` when PROJ cannot express it in that version.
    public func wkt(_ version: WKTVersion = .wkt1GDAL) throws -> String {
        context.resetMessages()
        let type = version == .wkt1GDAL ? PJ_WKT1_GDAL : PJ_WKT2_2019
        let options = ["MULTILINE=NO"]
        // Returns a string owned by the object (valid until the next call), or NULL on failure.
        let text = options.withCStringArray { proj_as_wkt(context.handle, object.pointer, type, $0) }
        guard let text else {
            throw GeometryError(.library, "PROJ cannot write \(identityForMessages) as \(version): \(context.detail())")
        }
        return String(cString: text)
    }

    /// True for a geographic CRS (latitude and longitude in degrees), also when wrapped as a
    /// bound CRS (a PROJ string with +towgs84) or the horizontal part of a compound one.
    public var isGeographic: Bool {
        var current = object
        for _ in 0..<3 {
            switch proj_get_type(current.pointer) {
            case PJ_TYPE_GEOGRAPHIC_2D_CRS, PJ_TYPE_GEOGRAPHIC_3D_CRS:
                return true
            case PJ_TYPE_BOUND_CRS:
                // A new object we own, or NULL.
                guard let base = proj_get_source_crs(context.handle, current.pointer) else { return false }
                current = PROJObject(context: context, owning: base)
            case PJ_TYPE_COMPOUND_CRS:
                guard let horizontal = proj_crs_get_sub_crs(context.handle, current.pointer, 0) else { return false }
                current = PROJObject(context: context, owning: horizontal)
            default:
                return false
            }
        }
        return false
    }

    /// Where the CRS may be used, in degrees of longitude and latitude (`minX > maxX` when
    /// the area crosses the antimeridian); nil when PROJ knows none (PROJ strings).
    public var areaOfUse: Envelope? {
        var west = 0.0, south = 0.0, east = 0.0, north = 0.0
        // Returns 1 when an area is known; unknown bounds come back as -1000.
        guard proj_get_area_of_use(context.handle, object.pointer, &west, &south, &east, &north, nil) != 0,
              west != -1000, south != -1000, east != -1000, north != -1000 else { return nil }
        return Envelope(minX: west, minY: south, maxX: east, maxY: north)
    }

    /// How errors name this CRS: its authority code, else the text it was made from.
    var identityForMessages: String {
        if let authority { return "\(authority.name):\(authority.code)" }
        return definition.count > 80 ? String(definition.prefix(80)) + "..." : definition
    }
}

extension Array where Element == String {
    /// Calls `body` with a NULL-terminated C array of these strings, as PROJ's options take.
    func withCStringArray<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
