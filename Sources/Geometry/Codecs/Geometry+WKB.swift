extension Geometry {
    /// Decodes well-known binary: either byte order, ISO Z/M/ZM type codes (1000/2000/3000
    /// offsets) and the EWKB high-bit flags (an embedded SRID is skipped). A point of NaN
    /// coordinates is the empty point.
    /// - Throws: `GeometryError.malformedInput` for truncated or inconsistent bytes, a bad
    ///   byte-order flag, unknown type codes, counts larger than the input, nesting deeper than
    ///   32, or bytes left over; `.unsupported` for curve and surface types.
    public init(wkb: [UInt8]) throws {
        self = try wkb.withUnsafeBytes { try Geometry(wkb: $0) }
    }

    /// Decodes well-known binary in place, without copying the bytes (a blob from SQLite).
    /// The buffer must hold exactly one geometry.
    public init(wkb buffer: UnsafeRawBufferPointer) throws {
        var offset = 0
        self = try Geometry.decodeWKB(buffer, at: &offset)
        if offset != buffer.count {
            throw GeometryError(.malformedInput, "WKB: \(buffer.count - offset) bytes left over after the geometry ends at byte \(offset)")
        }
    }

    /// Decodes the geometry that starts at `offset` in `buffer` and advances `offset` past it.
    /// - Throws: as `init(wkb:)`, except that bytes after the geometry are left alone.
    public static func decodeWKB(_ buffer: UnsafeRawBufferPointer, at offset: inout Int) throws -> Geometry {
        guard offset >= 0, offset <= buffer.count else {
            throw GeometryError(.malformedInput, "WKB: start offset \(offset) is outside the \(buffer.count)-byte input")
        }
        var reader = WKBReader(buffer, offset: offset)
        let geometry = try reader.readGeometry()
        offset = reader.offset
        return geometry
    }

    /// The ISO well-known binary of this geometry. Members of a collection take the ordinates
    /// of the whole geometry (those of its first coordinate); the empty point is written with
    /// NaN coordinates.
    public func wkb(byteOrder: WKBByteOrder = .littleEndian) -> [UInt8] {
        WKBWriter(byteOrder: byteOrder).encode(self)
    }
}
