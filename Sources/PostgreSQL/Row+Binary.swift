extension Row {
    /// An int2, int4 or int8 in binary send format: big-endian two's complement.
    func binaryInteger(_ column: Int) throws -> Int? {
        try withRawBytes(column) { raw -> Int in
            switch raw.count {
            case 2: return Int(Int16(bitPattern: UInt16(bigEndianBytes: raw)))
            case 4: return Int(Int32(bitPattern: UInt32(bigEndianBytes: raw)))
            case 8: return Int(Int64(bitPattern: UInt64(bigEndianBytes: raw)))
            default: throw unexpected(column, "\(raw.count) bytes", "an integer")
            }
        }
    }

    /// A float4 or float8 in binary send format: big-endian IEEE 754.
    func binaryDouble(_ column: Int) throws -> Double? {
        try withRawBytes(column) { raw -> Double in
            switch raw.count {
            case 4: return Double(Float(bitPattern: UInt32(bigEndianBytes: raw)))
            case 8: return Double(bitPattern: UInt64(bigEndianBytes: raw))
            default: throw unexpected(column, "\(raw.count) bytes", "a number")
            }
        }
    }
}

private extension FixedWidthInteger {
    /// The integer whose big-endian bytes `raw` holds (as many as the type has).
    init(bigEndianBytes raw: UnsafeBufferPointer<UInt8>) {
        var value = Self.zero
        for byte in raw.prefix(MemoryLayout<Self>.size) { value = value << 8 | Self(byte) }
        self = value
    }
}
