import CGEOS

extension GEOSContext {
    /// Parses WKT with GEOS's own reader.
    ///
    /// This is GEOS's parser, independent of the module's WKT codec; tests use it to read
    /// geometries recorded from GDAL.
    /// - Throws: `GeometryError(.malformedInput)` with GEOS's message when the text is not WKT.
    public func geometry(fromWKT text: String) throws -> Geometry {
        resetMessage()
        guard let reader = GEOSWKTReader_create_r(handle) else { throw failure("creating a WKT reader") }  // NULL on exception
        defer { GEOSWKTReader_destroy_r(handle, reader) }
        // Returns a new geometry we own, or NULL on exception.
        guard let g = GEOSWKTReader_read_r(handle, reader, text) else {
            throw failure("reading WKT \"\(text.prefix(60))\(text.count > 60 ? "..." : "")\"", kind: .malformedInput)
        }
        return try value(GEOSObject(context: self, owning: g))
    }
}
