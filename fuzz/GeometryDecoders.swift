// libFuzzer entry point over the WKB and GeoPackageBinary decoders. Compiled by fuzz/run
// together with the Geometry module's value and codec sources (not as part of the package,
// since libFuzzer brings its own main).

/// Feeds one input to every binary decoder. Besides not crashing, not leaking and not
/// allocating beyond libFuzzer's malloc limit, whatever decodes must re-encode to bytes that
/// decode to the same encoding, and the cheap envelope must agree with the decoded geometry.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeometryDecoders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)

    if let geometry = try? Geometry(wkb: input) {
        checkWKBRoundTrip(geometry)
    }

    let blob = try? GeoPackageBinary(bytes: input)
    let envelope = Result { try GeoPackageBinary.envelope(of: input) }
    let empty = Result { try GeoPackageBinary.isEmpty(input) }
    if let blob {
        checkWKBRoundTrip(blob.geometry)
        let again = blob.encoded()
        guard let reread = try? GeoPackageBinary(bytes: again), reread.encoded() == again else {
            fatalError("a decoded GeoPackage blob does not survive re-encoding")
        }
        guard case .success(let e) = envelope, case .success(let isEmpty) = empty, isEmpty == blob.isEmpty else {
            fatalError("the fast header functions fail on a blob that decodes")
        }
        var finite = true
        blob.geometry.forEachCoordinate { if !$0.x.isFinite || !$0.y.isFinite { finite = false } }
        if blob.envelope == nil, !blob.isEmpty, finite, e != blob.geometry.envelope {
            fatalError("envelope(of:) \(String(describing: e)) differs from the geometry's \(String(describing: blob.geometry.envelope))")
        }
    }
    return 0
}

private func checkWKBRoundTrip(_ geometry: Geometry) {
    for order in [WKBByteOrder.littleEndian, .bigEndian] {
        let bytes = geometry.wkb(byteOrder: order)
        guard let again = try? Geometry(wkb: bytes) else {
            fatalError("WKB written for a decoded geometry does not decode")
        }
        guard again.wkb(byteOrder: order) == bytes else {
            fatalError("WKB re-encoding is not stable")
        }
    }
}
