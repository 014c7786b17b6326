import Geometry
import TilePackage

/// Tiles per zoom as `tiles --dry-run` and `estimate` print them: a table, the total, and,
/// over `--max-tiles`, the zooms that fit, so that a plan too large says what would do.
struct TilePlanOutput {
    var counts: [TilePlan.ZoomCount]
    var bytes: Int?
    var maxTiles: Int
    var fit: TilePlan.Fit?

    var total: Int { counts.reduce(0) { $0 + $1.tiles } }
    var isExact: Bool { counts.allSatisfy(\.exact) }

    /// The members `--json` prints, under the names each command has always used for the
    /// zooms, the total and the bytes (`tiles --dry-run`'s by default).
    func jsonMembers(zooms: String = "zooms", total totalKey: String = "total_tiles",
                     bytes bytesKey: String = "estimated_bytes") -> [JSONMember] {
        [
            JSONMember(zooms, .array(counts.map {
                .object(["zoom": .int($0.zoom), "tiles": .int($0.tiles), "exact": .bool($0.exact)])
            })),
            JSONMember(totalKey, .int(total)),
            JSONMember("exact", .bool(isExact)),
            JSONMember(bytesKey, bytes.map { JSONValue.int($0) } ?? .null),
            JSONMember("max_tiles", .int(maxTiles)),
            JSONMember("within_max_tiles", .bool(total <= maxTiles)),
            JSONMember("fitting_zooms", fit.map {
                .object(["min_zoom": .int($0.zooms.lowerBound), "max_zoom": .int($0.zooms.upperBound), "tiles": .int($0.tiles)])
            } ?? .null),
        ]
    }

    /// The table; estimated counts (zooms past the one that passed `--max-tiles`) start with `~`.
    var table: String {
        var table = TextTable(columns: [.init("ZOOM", alignment: .right), .init("TILES", alignment: .right)])
        for c in counts { table.append([String(c.zoom), (c.exact ? "" : "~") + String(c.tiles)]) }
        return table.rendered
    }

    /// `total: N tiles, about B`.
    var totalLine: String {
        var line = "total: \(isExact ? "" : "about ")\(total) tiles"
        if let bytes { line += ", about \(TilesCommand.humanBytes(bytes)) (\(bytes) bytes)" }
        return line
    }

    /// Over `--max-tiles`: that a real run would be refused, and what would fit; nil within.
    var limitWarning: String? {
        guard total > maxTiles else { return nil }
        var text = "more than --max-tiles \(maxTiles): a real run would be refused"
        if let fit {
            text += "; zoom \(fit.zooms.lowerBound)-\(fit.zooms.upperBound) fits (\(fit.tiles) tiles)"
        } else {
            text += "; even zoom \(counts.first?.zoom ?? 0) alone does not fit"
        }
        if !isExact { text += "; zooms marked ~ are estimated, not counted" }
        return text
    }
}
