extension DeclaredGeometryType {
    /// True when a stored blob's geometry fits the column as it is, judged from its WKB
    /// header (type code and ordinate flags) without decoding the coordinates: a blob that
    /// fits may be copied byte for byte. False for a blob that cannot be read.
    public func admitsAsStored(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let header = try? GeoPackageBinaryHeader(raw) else { return false }
            var reader = WKBReader(raw, offset: header.wkbOffset)
            guard let wkb = try? reader.readHeader(depth: 0) else { return false }
            return mismatch(type: wkb.type, dimension: header.isEmpty ? nil : wkb.dimension) == nil
        }
    }
}
