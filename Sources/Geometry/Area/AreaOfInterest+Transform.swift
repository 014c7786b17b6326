extension AreaOfInterest {
    /// The area in another CRS (a layer's, the package's), its edges densified in its own
    /// CRS first so that they follow the curve a straight edge becomes, and made valid again
    /// (a transform can fold a ring that was valid). The same CRS gives ``geometry`` as it is.
    /// - Parameters:
    ///   - target: the CRS to take the area to.
    ///   - segments: pieces each edge of the bounding box's size is cut into.
    /// - Throws: `GeometryError` from PROJ (coordinates it cannot transform) or GEOS.
    public func geometry(in target: CoordinateReferenceSystem, proj: PROJContext, geos: GEOSContext,
                         segments: Double = 100) throws -> Geometry {
        let source = try CoordinateReferenceSystem(crs, context: proj)
        if source.identity == target.identity { return geometry }
        let transformed = try densifiedTransform(from: source, to: target, envelope: geometry.envelope ?? envelope,
                                                 proj: proj, segments: segments)
        return try AreaOfInterest.polygonal([transformed], named: "area \(AreaOfInterest.abbreviated(text)) in \(target.identity)",
                                            context: geos)
    }
}
