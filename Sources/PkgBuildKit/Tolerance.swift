/// How close to a point a feature must be to count as "at" it: a ground distance, or a
/// number of screen pixels at a zoom level (what a tap on a map covers).
import Foundation

public enum Tolerance: Sendable, Hashable, CustomStringConvertible {
    /// Metres on the ground.
    case meters(Double)
    /// Pixels of a 256-pixel Web Mercator tile at `zoom`, measured at the point's latitude.
    case pixels(Double, zoom: Int)

    /// Reads `25m`, `25 m`, `0.5km`, `30` (metres), or `5px@z12`; nil for anything else
    /// (negative, non-finite, zoom outside 0...30).
    public init?(_ text: String) {
        let compact = text.lowercased().replacingOccurrences(of: " ", with: "")
        if let at = compact.range(of: "px@z") {
            guard let pixels = Double(compact[..<at.lowerBound]), pixels.isFinite, pixels >= 0,
                  let zoom = Int(compact[at.upperBound...]), (0...30).contains(zoom) else { return nil }
            self = .pixels(pixels, zoom: zoom)
            return
        }
        let (number, scale): (Substring, Double) =
            compact.hasSuffix("km") ? (compact.dropLast(2), 1000)
            : compact.hasSuffix("m") ? (compact.dropLast(), 1) : (Substring(compact), 1)
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        self = .meters(value * scale)
    }

    /// The tolerance in ground metres at a latitude (degrees).
    ///
    /// A Web Mercator pixel at zoom z spans 2πa / (256 · 2^z) projected metres (a = 6 378 137 m,
    /// the sphere Web Mercator uses), and a projected metre at latitude φ is cos φ metres on
    /// the ground: the "ground resolution" of the Bing Maps tile system article.
    public func meters(atLatitude latitude: Double) -> Double {
        switch self {
        case .meters(let meters):
            return meters
        case .pixels(let pixels, let zoom):
            let metersPerPixelAtEquator = 2 * Double.pi * 6_378_137 / (256 * pow(2, Double(zoom)))
            return pixels * metersPerPixelAtEquator * cos(latitude * .pi / 180)
        }
    }

    public var description: String {
        switch self {
        case .meters(let meters): "\(meters) m"
        case .pixels(let pixels, let zoom): "\(pixels) px at zoom \(zoom)"
        }
    }
}
