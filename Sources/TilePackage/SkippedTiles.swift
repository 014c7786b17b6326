import Foundation

/// The tiles a copy finished without because the source failed to deliver them
/// (`--skip-failed`), as the finished MBTiles file keeps them in its metadata: whoever opens
/// the file later (`inspect`) can tell tiles left out by a failure, which a re-run would
/// fetch, from tiles the source does not have.
public struct SkippedTiles: Sendable, Hashable, Codable {
    /// The metadata row's name; MBTiles readers ignore names they do not know.
    public static let metadataName = "pkgbuild_failed_tiles"

    /// How many tiles were left out.
    public var count: Int
    /// The same, per zoom.
    public var perZoom: [Int: Int]
    /// The first of them (`TileCopyReport.listedFailures`), as `z/x/y`, with why.
    public var listed: [TileFailure]

    public init(count: Int, perZoom: [Int: Int], listed: [TileFailure]) {
        self.count = count
        self.perZoom = perZoom
        self.listed = listed
    }

    /// The failures of a finished copy; nil when none failed.
    public init?(_ report: TileCopyReport) {
        guard report.failed > 0 else { return nil }
        self.init(count: report.failed, perZoom: report.failedByZoom, listed: report.failures)
    }

    enum CodingKeys: String, CodingKey { case count, perZoom = "per_zoom", listed }

    /// The metadata value: JSON, keys sorted so that the same failures give the same bytes.
    public func metadataValue() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain integers and strings cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// - Throws: `DecodingError` for a value that is not one of ours.
    public init(metadataValue: String) throws {
        self = try JSONDecoder().decode(SkippedTiles.self, from: Data(metadataValue.utf8))
    }
}

extension TileFailure: Codable {
    enum CodingKeys: String, CodingKey { case tile, reason }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .tile)
        let numbers = text.split(separator: "/").compactMap { Int($0) }
        guard numbers.count == 3 else {
            throw DecodingError.dataCorruptedError(forKey: .tile, in: c, debugDescription: "not z/x/y: \(text)")
        }
        self.init(tile: TileID(z: numbers[0], x: numbers[1], y: numbers[2]), reason: try c.decode(String.self, forKey: .reason))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("\(tile)", forKey: .tile)
        try c.encode(reason, forKey: .reason)
    }
}
