import Foundation
import TestSupport
@testable import Geometry

/// A cs2cs fixture written by testdata/fixtures/record-cs2cs.sh, turned into x=lon/easting
/// order on both sides.
struct CS2CSFixture: CustomStringConvertible {
    var source: String
    var target: String
    var pairs: [(input: Coordinate, output: Coordinate)]
    var box: Envelope?
    var targetIsDegrees: Bool
    var description: String { "\(source) -> \(target)" }

    init(_ file: String) throws {
        let text = try String(contentsOf: TestData.fixture("cs2cs/\(file)"), encoding: .utf8)
        let name = (file as NSString).deletingPathExtension
        let crs = name.replacingOccurrences(of: "bounds-", with: "").replacingOccurrences(of: "inverse-", with: "").split(separator: "-")
            .map { $0.replacingOccurrences(of: "EPSG", with: "EPSG:") }
        guard crs.count == 2 else { throw GeometryError(.malformedInput, "fixture name \(file)") }
        source = crs[0]
        target = crs[1]
        var sourceSwapped = false, targetSwapped = false
        pairs = []
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if fields.first == "#!" {
                if fields.contains("source-axes=yx") { sourceSwapped = true }
                if fields.contains("target-axes=yx") { targetSwapped = true }
                if fields.count == 6, fields[1] == "box" {
                    let v = fields[2...].compactMap(Double.init)
                    box = Envelope(minX: v[0], minY: v[1], maxX: v[2], maxY: v[3])
                }
                continue
            }
            if fields.first?.hasPrefix("#") == true { continue }
            let v = fields.compactMap(Double.init)
            guard v.count == 5 else { throw GeometryError(.malformedInput, "bad line in \(file): \(line)") }
            let input = sourceSwapped ? Coordinate(v[1], v[0]) : Coordinate(v[0], v[1])
            let output = targetSwapped ? Coordinate(v[3], v[2]) : Coordinate(v[2], v[3])
            pairs.append((input, output))
        }
        targetIsDegrees = targetSwapped
    }

    /// What the output must match to: 1e-9 degrees, 1e-6 metres (or US feet).
    var tolerance: Double { targetIsDegrees ? 1e-9 : 1e-6 }
}
