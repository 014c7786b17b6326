import Foundation
import Geometry

/// The spherical Web Mercator tile scheme (EPSG:3857, 256-pixel tiles numbered XYZ from
/// the north-west corner), as OSM, Google and Mapbox use it.
///
/// Latitudes beyond ±`maxLatitude` are clamped onto it; longitudes of exactly ±180 are
/// the scheme's east and west edges, so 180 falls in the last column and -180 in the first.
public enum WebMercator {
    /// The latitude where the square world ends: atan(sinh(π)) in degrees.
    public static let maxLatitude = 85.0511287798066

    /// The sphere's radius in metres (WGS 84's semi-major axis).
    public static let earthRadius = 6_378_137.0

    /// Half the width of the square world in metres: π × radius.
    public static let originShift = Double.pi * earthRadius

    /// Points this close to the right or bottom edge of a tile count in the next tile, so
    /// that a tile's own corner, after a round trip through degrees, maps back to it
    /// (mercantile does the same).
    static let edgeEpsilon = 1e-14

    /// The latitude clamped into the square world.
    public static func clampLatitude(_ lat: Double) -> Double {
        max(-maxLatitude, min(maxLatitude, lat))
    }

    /// Position in tile units at `zoom`: the integer part is the tile, the fraction the
    /// place inside it. Latitude is clamped; longitude is not wrapped.
    public static func fractionalTile(lon: Double, lat: Double, zoom: Int) -> (x: Double, y: Double) {
        let n = Double(1 << zoom)
        let (u, v) = unitSquare(lon: lon, lat: lat)
        return (u * n, v * n)
    }

    /// The tile at `zoom` containing the point. Latitude is clamped; longitudes outside
    /// [-180, 180] fall in the first or last column.
    public static func tile(lon: Double, lat: Double, zoom: Int) -> TileID {
        let n = 1 << zoom
        let (u, v) = unitSquare(lon: lon, lat: lat)
        return TileID(z: zoom, x: index(u, n), y: index(v, n))
    }

    /// The tile's bounds in degrees (west, south, east, north).
    public static func bounds(of tile: TileID) -> Envelope {
        let n = Double(1 << tile.z)
        return Envelope(minX: Double(tile.x) / n * 360 - 180,
                        minY: latitude(ofRow: Double(tile.y + 1), tilesPerSide: n),
                        maxX: Double(tile.x + 1) / n * 360 - 180,
                        maxY: latitude(ofRow: Double(tile.y), tilesPerSide: n))
    }

    /// The tile's bounds in EPSG:3857 metres.
    public static func mercatorBounds(of tile: TileID) -> Envelope {
        let size = 2 * originShift / Double(1 << tile.z)
        let minX = Double(tile.x) * size - originShift
        let maxY = originShift - Double(tile.y) * size
        return Envelope(minX: minX, minY: maxY - size, maxX: minX + size, maxY: maxY)
    }

    /// Degrees to EPSG:3857 metres on the sphere; latitude is clamped.
    public static func mercator(lon: Double, lat: Double) -> (x: Double, y: Double) {
        let phi = clampLatitude(lat) * .pi / 180
        return (earthRadius * lon * .pi / 180, earthRadius * log(tan(.pi / 4 + phi / 2)))
    }

    /// EPSG:3857 metres to degrees.
    public static func lonLat(mercatorX x: Double, y: Double) -> (lon: Double, lat: Double) {
        (x / earthRadius * 180 / .pi, (2 * atan(exp(y / earthRadius)) - .pi / 2) * 180 / .pi)
    }

    /// The tiles of `zoom` a side.
    public static func tilesPerSide(zoom: Int) -> Int { 1 << zoom }

    // The point in the unit square: (0, 0) is the north-west corner, (1, 1) the south-east.
    private static func unitSquare(lon: Double, lat: Double) -> (Double, Double) {
        let sinLat = sin(clampLatitude(lat) * .pi / 180)
        let v = 0.5 - 0.25 * log((1 + sinLat) / (1 - sinLat)) / .pi
        return (lon / 360 + 0.5, v)
    }

    private static func index(_ unit: Double, _ n: Int) -> Int {
        if unit <= 0 { return 0 }
        if unit >= 1 { return n - 1 }
        return min(n - 1, Int(((unit + edgeEpsilon) * Double(n)).rounded(.down)))
    }

    private static func latitude(ofRow row: Double, tilesPerSide n: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * row / n))) * 180 / .pi
    }
}
