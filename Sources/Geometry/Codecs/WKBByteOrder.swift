/// The byte order of a WKB encoding (its first byte: 0 big-endian, 1 little-endian).
public enum WKBByteOrder: Sendable, Hashable {
    case bigEndian
    case littleEndian

    /// The WKB byte-order flag: 0 for big-endian (XDR), 1 for little-endian (NDR).
    public var flag: UInt8 { self == .littleEndian ? 1 : 0 }
}
