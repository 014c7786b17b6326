/// A geometry as a GeoPackage stores it (GeoPackage 1.3, clause 2.1.3): the "GP" header with
/// version, flags, srs_id and an optional envelope, followed by WKB.
///
/// A decoded value remembers the layout it was read with (header and WKB byte orders,
/// envelope kind and values, the empty flag), so `encoded()` gives back the same bytes for
/// anything written with ISO type codes and one byte order per WKB, as GDAL writes.
public struct GeoPackageBinary: Sendable, Hashable {
    /// The header's version byte; 0 is GeoPackage version 1, the only one defined.
    public var version: UInt8
    /// The spatial reference system id (`gpkg_spatial_ref_sys.srs_id`).
    public var srsID: Int32
    /// The header envelope; nil for envelope kind 0.
    public var envelope: GeoPackageEnvelope?
    /// The header's empty flag.
    public var isEmpty: Bool
    /// The byte order of the header's srs_id and envelope (flags bit 0).
    public var headerByteOrder: WKBByteOrder
    /// The byte order the WKB after the header was written in.
    public var wkbByteOrder: WKBByteOrder
    public var geometry: Geometry

    /// The envelope kind of the header (flags bits 1-3).
    public var envelopeKind: GeoPackageEnvelopeKind { envelope?.kind ?? .none }

    /// Decodes a GeoPackage geometry blob.
    /// - Throws: `GeometryError.malformedInput` for a bad magic, a truncated header, envelope
    ///   codes 5-7 or bad WKB; `.unsupported` for another version, the extended-geometry flag
    ///   or reserved flag bits.
    public init(bytes: [UInt8]) throws {
        self = try bytes.withUnsafeBytes { try GeoPackageBinary(bytes: $0) }
    }

    /// Decodes a GeoPackage geometry blob in place (a blob from SQLite), without copying it.
    public init(bytes: UnsafeRawBufferPointer) throws {
        let header = try GeoPackageBinaryHeader(bytes)
        var offset = header.wkbOffset
        let firstWKBByte = offset < bytes.count ? bytes[offset] : 1
        let geometry = try Geometry.decodeWKB(bytes, at: &offset)
        if offset != bytes.count {
            throw GeometryError(.malformedInput, "GeoPackage geometry: \(bytes.count - offset) bytes left over after the WKB ends at byte \(offset)")
        }
        self.version = header.version
        self.srsID = header.srsID
        self.envelope = header.envelope
        self.isEmpty = header.isEmpty
        self.headerByteOrder = header.littleEndian ? .littleEndian : .bigEndian
        self.wkbByteOrder = firstWKBByte == 1 ? .littleEndian : .bigEndian
        self.geometry = geometry
    }

    /// Wraps a geometry for storage: little-endian header and WKB, version 0, and the envelope
    /// computed from the geometry. An empty geometry gets the empty flag and no envelope, as
    /// the GeoPackage spec recommends; a z or m range the geometry has no values for is NaN.
    public init(geometry: Geometry, srsID: Int32, envelopeKind: GeoPackageEnvelopeKind = .xy) {
        self.version = 0
        self.srsID = srsID
        self.isEmpty = geometry.isEmpty
        self.headerByteOrder = .littleEndian
        self.wkbByteOrder = .littleEndian
        self.geometry = geometry
        if geometry.isEmpty || envelopeKind == .none {
            self.envelope = nil
        } else {
            self.envelope = GeoPackageEnvelope(of: geometry, kind: envelopeKind)
        }
    }

    /// The blob: header in `headerByteOrder`, then the WKB in `wkbByteOrder`.
    public func encoded() -> [UInt8] {
        Self.blob(version: version, srsID: srsID, envelope: envelope, isEmpty: isEmpty,
                  littleEndian: headerByteOrder == .littleEndian, wkb: geometry.wkb(byteOrder: wkbByteOrder))
    }

    /// The header (magic, version, flags, srs_id, envelope) in the byte order asked, then the WKB.
    static func blob(version: UInt8, srsID: Int32, envelope: GeoPackageEnvelope?, isEmpty: Bool,
                     littleEndian le: Bool, wkb: [UInt8]) -> [UInt8] {
        let kind = envelope?.kind ?? .none
        let flags: UInt8 = (le ? 1 : 0) | kind.rawValue << 1 | (isEmpty ? 0x10 : 0)
        var out: [UInt8] = [0x47, 0x50, version, flags]
        out.reserveCapacity(8 + kind.doubleCount * 8 + wkb.count)
        func append<T: FixedWidthInteger>(_ v: T) {
            withUnsafeBytes(of: le ? v.littleEndian : v.bigEndian) { out.append(contentsOf: $0) }
        }
        append(srsID)
        if let e = envelope {
            for v in [e.x.min, e.x.max, e.y.min, e.y.max] { append(v.bitPattern) }
            if let z = e.z { append(z.min.bitPattern); append(z.max.bitPattern) }
            if let m = e.m { append(m.min.bitPattern); append(m.max.bitPattern) }
        }
        out.append(contentsOf: wkb)
        return out
    }
}

extension GeoPackageBinary {
    /// The 2D envelope of a blob, cheaply: from the header when it has one, else by walking
    /// the WKB without building the geometry. Nil for an empty geometry (empty flag, or an
    /// envelope of NaN). Backs `ST_MinX` ... `ST_MaxY`.
    /// - Throws: `GeometryError` as `init(bytes:)` for a bad header or bad WKB.
    public static func envelope(of bytes: [UInt8]) throws -> Envelope? {
        try bytes.withUnsafeBytes { try envelope(of: $0) }
    }

    /// As `envelope(of:)` for `[UInt8]`, reading the blob in place.
    public static func envelope(of bytes: UnsafeRawBufferPointer) throws -> Envelope? {
        let header = try GeoPackageBinaryHeader(bytes)
        if header.isEmpty { return nil }
        if let e = header.envelope { return e.xy }
        var reader = WKBReader(bytes, offset: header.wkbOffset)
        var envelope: Envelope?
        try reader.scanEnvelope(into: &envelope)
        return envelope
    }

    /// The header's empty flag, read without touching the WKB. Backs `ST_IsEmpty`.
    /// - Throws: `GeometryError` for a bad header.
    public static func isEmpty(_ bytes: [UInt8]) throws -> Bool {
        try bytes.withUnsafeBytes { try GeoPackageBinaryHeader($0).isEmpty }
    }

    /// As `isEmpty(_:)` for `[UInt8]`, reading the blob in place.
    public static func isEmpty(_ bytes: UnsafeRawBufferPointer) throws -> Bool {
        try GeoPackageBinaryHeader(bytes).isEmpty
    }
}

extension GeoPackageEnvelope {
    /// The envelope of a non-empty geometry with the ranges `kind` asks for; NaN coordinates
    /// are skipped, and a range with no values left is NaN.
    init(of geometry: Geometry, kind: GeoPackageEnvelopeKind) {
        var x = Accumulator(), y = Accumulator(), z = Accumulator(), m = Accumulator()
        geometry.forEachCoordinate { c in
            x.add(c.x)
            y.add(c.y)
            if let v = c.z { z.add(v) }
            if let v = c.m { m.add(v) }
        }
        self.init(x: x.range, y: y.range, z: kind.hasZ ? z.range : nil, m: kind.hasM ? m.range : nil)
    }

    private struct Accumulator {
        var min = Double.nan, max = Double.nan
        mutating func add(_ v: Double) {
            if v.isNaN { return }
            if min.isNaN || v < min { min = v }
            if max.isNaN || v > max { max = v }
        }
        var range: OrdinateRange { OrdinateRange(min: min, max: max) }
    }
}

/// The parsed header of a GeoPackage geometry blob; where its WKB starts.
struct GeoPackageBinaryHeader {
    var version: UInt8
    var littleEndian: Bool
    var isEmpty: Bool
    var srsID: Int32
    var envelope: GeoPackageEnvelope?
    var wkbOffset: Int

    init(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count >= 8 else {
            throw GeometryError(.malformedInput, "GeoPackage geometry: truncated header: \(bytes.count) bytes, at least 8 needed")
        }
        guard bytes[0] == 0x47, bytes[1] == 0x50 else {
            throw GeometryError(.malformedInput, "GeoPackage geometry: bad magic 0x\(hex(bytes[0]))\(hex(bytes[1])) (must be \"GP\", 0x4750)")
        }
        version = bytes[2]
        guard version == 0 else {
            throw GeometryError(.unsupported, "GeoPackage geometry: version byte \(version) is not supported (only 0, GeoPackage version 1)")
        }
        let flags = bytes[3]
        if flags & 0xC0 != 0 {
            throw GeometryError(.unsupported, "GeoPackage geometry: reserved flag bits set (flags 0x\(hex(flags)))")
        }
        if flags & 0x20 != 0 {
            throw GeometryError(.unsupported, "GeoPackage geometry: extended geometry types (flags 0x\(hex(flags))) are not supported")
        }
        isEmpty = flags & 0x10 != 0
        littleEndian = flags & 0x01 != 0
        let code = (flags >> 1) & 0x07
        guard let kind = GeoPackageEnvelopeKind(rawValue: code) else {
            throw GeometryError(.malformedInput, "GeoPackage geometry: invalid envelope contents indicator \(code) (must be 0-4)")
        }
        wkbOffset = 8 + kind.doubleCount * 8
        guard bytes.count >= wkbOffset else {
            throw GeometryError(.malformedInput, "GeoPackage geometry: truncated header: envelope kind \(code) needs \(wkbOffset) bytes, the blob has \(bytes.count)")
        }
        let le = littleEndian
        let raw = bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        srsID = Int32(bitPattern: le ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw))
        func double(_ i: Int) -> Double {
            let v = bytes.loadUnaligned(fromByteOffset: 8 + i * 8, as: UInt64.self)
            return Double(bitPattern: le ? UInt64(littleEndian: v) : UInt64(bigEndian: v))
        }
        func range(_ i: Int) -> GeoPackageEnvelope.OrdinateRange {
            .init(min: double(i), max: double(i + 1))
        }
        switch kind {
        case .none: envelope = nil
        case .xy: envelope = GeoPackageEnvelope(x: range(0), y: range(2))
        case .xyz: envelope = GeoPackageEnvelope(x: range(0), y: range(2), z: range(4))
        case .xym: envelope = GeoPackageEnvelope(x: range(0), y: range(2), m: range(4))
        case .xyzm: envelope = GeoPackageEnvelope(x: range(0), y: range(2), z: range(4), m: range(6))
        }
    }
}

private func hex(_ b: UInt8) -> String {
    let s = String(b, radix: 16, uppercase: true)
    return s.count == 1 ? "0" + s : s
}

extension GeoPackageBinary {
    /// The geometry value of a blob, read from its header: the WKB after it copied as it is,
    /// never decoded (a sync moves thousands of rows through the seam).
    /// - Throws: `GeometryError` for a bad header.
    public static func geometryValue(of bytes: [UInt8]) throws -> GeometryValue {
        let header = try bytes.withUnsafeBytes { try GeoPackageBinaryHeader($0) }
        return GeometryValue(wkb: Array(bytes[header.wkbOffset...]), srsID: Int64(header.srsID),
                             envelope: header.envelope, isEmpty: header.isEmpty)
    }

    /// The blob of a geometry value: a little-endian header with its srs id and its envelope,
    /// then the WKB as it is. A value without an envelope gets one computed from the WKB,
    /// except a point, which GDAL writes without (so a GDAL blob comes back byte for byte).
    /// With `computingEnvelope` false no envelope is computed at all: a geometry copied from
    /// one GeoPackage to another keeps its header's envelope, or its lack of one.
    /// - Throws: `GeometryError` for WKB that cannot be scanned, or an srs id outside 32 bits.
    public static func blob(of value: GeometryValue, computingEnvelope: Bool = true) throws -> [UInt8] {
        guard let srsID = Int32(exactly: value.srsID) else {
            throw GeometryError(.malformedInput, "GeoPackage geometry: srs_id \(value.srsID) does not fit 32 bits")
        }
        var envelope = value.envelope
        if envelope == nil && !value.isEmpty && computingEnvelope && !isPoint(value.wkb) {
            var xy: Envelope?
            try value.wkb.withUnsafeBytes { bytes in
                var reader = WKBReader(bytes)
                try reader.scanEnvelope(into: &xy)
            }
            envelope = xy.map { GeoPackageEnvelope($0) }
        }
        return blob(version: 0, srsID: srsID, envelope: value.isEmpty ? nil : envelope, isEmpty: value.isEmpty,
                    littleEndian: true, wkb: value.wkb)
    }

    /// True when the WKB is a point (ISO or extended type code 1 in either byte order).
    private static func isPoint(_ wkb: [UInt8]) -> Bool {
        guard wkb.count >= 5 else { return false }
        let code = wkb[0] == 1 ? UInt32(wkb[1]) | UInt32(wkb[2]) << 8 | UInt32(wkb[3]) << 16 | UInt32(wkb[4]) << 24
            : UInt32(wkb[4]) | UInt32(wkb[3]) << 8 | UInt32(wkb[2]) << 16 | UInt32(wkb[1]) << 24
        return (code & 0x0FFF_FFFF) % 1000 == 1
    }
}
