/// What can be learnt of a geometry value without decoding it: its planar envelope and
/// whether a declared column type takes it as it is (the WKB header alone), so a feature that
/// needs no change crosses from source to package undecoded.
extension GeometryValue {
    /// The x/y envelope: the stored one, else scanned from the WKB; nil for an empty geometry.
    /// - Throws: `GeometryError` for WKB that cannot be scanned.
    public func planarEnvelope() throws -> Envelope? {
        if isEmpty { return nil }
        if let envelope { return envelope.xy }
        var xy: Envelope?
        try wkb.withUnsafeBytes { bytes in
            var reader = WKBReader(bytes)
            try reader.scanEnvelope(into: &xy)
        }
        return xy
    }
}

extension DeclaredGeometryType {
    /// True when a column of this type takes the value as it is: its WKB's type and
    /// dimension meet the declaration (an empty geometry's dimension is not judged).
    public func admitsAsStored(_ value: GeometryValue) -> Bool {
        value.wkb.withUnsafeBytes { raw in
            var reader = WKBReader(raw)
            guard let wkb = try? reader.readHeader(depth: 0) else { return false }
            return mismatch(type: wkb.type, dimension: value.isEmpty ? nil : wkb.dimension) == nil
        }
    }
}
