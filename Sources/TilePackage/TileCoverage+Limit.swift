extension TileCoverage {
    /// The most tiles a copy takes unless told otherwise: the cap ArcGIS servers put on one
    /// tile export.
    public static let defaultMaxTiles = 100_000

    /// Refuses a coverage of more than `maxTiles` tiles, before any work, saying how many it
    /// has and the deepest zoom that would fit.
    /// - Throws: `TilePackageError(.invalidInput)` naming `--max-tiles`.
    public func checkTileCount(maxTiles: Int) throws(TilePackageError) {
        let total = totalCount
        guard total > maxTiles else { return }
        var message = "the area needs \(total) tiles at zoom \(zooms.lowerBound)-\(zooms.upperBound), more than --max-tiles \(maxTiles)"
        if let fits = deepestZoom(fittingIn: maxTiles) {
            let fitting = (zooms.lowerBound...fits).reduce(0) { $0 + count(zoom: $1) }
            message += "; zoom \(zooms.lowerBound)-\(fits) fits (\(fitting) tiles), or raise --max-tiles"
        } else {
            message += "; even zoom \(zooms.lowerBound) alone does not fit: raise --max-tiles"
        }
        throw TilePackageError(.invalidInput, message)
    }
}
