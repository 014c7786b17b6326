import Foundation
import Geometry
import SQLite

/// Reads an MBTiles file: its metadata, single tiles and rectangles of tiles.
///
/// Both layouts are read: the plain `tiles` table, and the deduplicated `map` + `images`
/// tables (with or without the `tiles` view over them). Rows whose column or row lies outside
/// their zoom's range (GDAL writes such rows from unclipped data) are never returned; they
/// are reported by `outOfRangeRows()`.
///
/// - Important: not thread-safe (it owns one SQLite connection).
public final class MBTilesReader {
    public let path: String
    let connection: Connection
    /// The relation tiles are read from: `tiles`, or a join of `map` and `images`.
    let tilesRelation: String
    private var singleTile: Statement?

    /// Opens an MBTiles file read-only.
    /// - Throws: `TilePackageError(.invalidInput)` naming the path when it is missing, not
    ///   SQLite, or has neither a `tiles` table/view nor `map` + `images`.
    public init(path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TilePackageError(.invalidInput, "\(path): no such MBTiles file")
        }
        do {
            connection = try Connection(path: path, mode: .readOnly)
            let names = Set(try connection.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
                .compactMap { $0.first?.stringValue?.lowercased() })
            if names.contains("tiles") {
                tilesRelation = "tiles"
            } else if names.contains("map") && names.contains("images") {
                tilesRelation = "(SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, map.tile_row AS tile_row, images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id)"
            } else {
                throw TilePackageError(.invalidInput, "\(path): not an MBTiles file (no tiles table, nor map and images)")
            }
        } catch let error as SQLiteError {
            throw TilePackageError(.invalidInput, "\(path): cannot be read as MBTiles: \(error)")
        }
    }

    /// The `metadata` table as name -> value (empty when the table is missing).
    public func metadataValues() throws -> [String: String] {
        let hasTable = try wrap { try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'metadata'")?.int64Value ?? 0 }
        guard hasTable > 0 else { return [:] }
        var values: [String: String] = [:]
        try wrap {
            try connection.forEachRow("SELECT name, value FROM metadata") { row in
                if let name = row.string(at: 0), let value = row.string(at: 1) { values[name] = value }
            }
        }
        return values
    }

    /// The metadata as a source describes itself; values that do not parse are left out.
    public func metadata() throws -> TileSourceMetadata {
        let m = try metadataValues()
        var bounds: Envelope?
        if let b = m["bounds"] {
            let parts = b.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if parts.count == 4 { bounds = Envelope(minX: parts[0], minY: parts[1], maxX: parts[2], maxY: parts[3]) }
        }
        return TileSourceMetadata(format: m["format"], name: m["name"], attribution: m["attribution"],
                                  description: m["description"], type: m["type"], bounds: bounds,
                                  minZoom: m["minzoom"].flatMap { Int($0) }, maxZoom: m["maxzoom"].flatMap { Int($0) },
                                  json: m["json"])
    }

    /// One tile's bytes by XYZ numbers, or nil when the file does not have it.
    public func tile(_ id: TileID) throws -> Data? {
        guard id.isValid else { return nil }
        return try wrap {
            let statement: Statement
            if let singleTile { statement = singleTile } else {
                statement = try connection.prepare("SELECT tile_data FROM \(tilesRelation) WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
                singleTile = statement
            }
            defer { statement.reset() }
            try statement.bind([.integer(Int64(id.z)), .integer(Int64(id.x)), .integer(Int64(id.tmsY))])
            guard try statement.step(), let bytes = statement.blob(at: 0) else { return nil }
            return Data(bytes)
        }
    }

    /// Calls `body` with every tile of the file inside `range`, in storage order.
    public func forEachTile(in range: TileRange, _ body: (TileID, Data) throws -> Void) throws {
        guard !range.isEmpty else { return }
        try wrap {
            let statement = try connection.prepare("""
                SELECT tile_column, tile_row, tile_data FROM \(tilesRelation)
                WHERE zoom_level = ? AND tile_column BETWEEN ? AND ? AND tile_row BETWEEN ? AND ?
                """)
            try statement.bind([.integer(Int64(range.z)), .integer(Int64(range.minX)), .integer(Int64(range.maxX)),
                                .integer(Int64(range.minTMSY)), .integer(Int64(range.maxTMSY))])
            while try statement.step() {
                guard let bytes = statement.blob(at: 2) else { continue }
                try body(TileID(z: range.z, x: Int(statement.int64(at: 0)), tmsY: Int(statement.int64(at: 1))), Data(bytes))
            }
        }
    }

    /// The number of tiles and their bytes inside `range`.
    public func sizes(in range: TileRange) throws -> (count: Int, bytes: Int) {
        guard !range.isEmpty else { return (0, 0) }
        return try wrap {
            let row = try connection.query("""
                SELECT count(*), coalesce(sum(length(tile_data)), 0) FROM \(tilesRelation)
                WHERE zoom_level = ? AND tile_column BETWEEN ? AND ? AND tile_row BETWEEN ? AND ?
                """, [.integer(Int64(range.z)), .integer(Int64(range.minX)), .integer(Int64(range.maxX)),
                      .integer(Int64(range.minTMSY)), .integer(Int64(range.maxTMSY))]).first
            return (Int(row?[0].int64Value ?? 0), Int(row?[1].int64Value ?? 0))
        }
    }

    /// Per zoom present in the file: the tiles with valid numbers and their column and row
    /// (XYZ) ranges.
    public func zoomSummaries() throws -> [(zoom: Int, count: Int, range: TileRange)] {
        try wrap {
            try connection.query("""
                SELECT zoom_level, count(*), min(tile_column), max(tile_column), min(tile_row), max(tile_row)
                FROM \(tilesRelation)
                WHERE zoom_level BETWEEN 0 AND \(TileID.maxZoom) AND tile_column >= 0 AND tile_row >= 0
                  AND tile_column < (1 << zoom_level) AND tile_row < (1 << zoom_level)
                GROUP BY zoom_level ORDER BY zoom_level
                """).compactMap { row in
                guard let z = row[0].int64Value.map(Int.init), let minTMS = row[4].int64Value, let maxTMS = row[5].int64Value else { return nil }
                let top = (1 << z) - 1
                let range = TileRange(z: z, minX: Int(row[2].int64Value ?? 0), maxX: Int(row[3].int64Value ?? 0),
                                      minY: top - Int(maxTMS), maxY: top - Int(minTMS))
                return (z, Int(row[1].int64Value ?? 0), range)
            }
        }
    }

    /// Rows whose zoom, column or row cannot exist: how many, and one of them as stored
    /// (zoom, column, TMS row), or nil when there are none.
    public func outOfRangeRows() throws -> (count: Int, example: (zoom: Int, column: Int, row: Int))? {
        try wrap {
            let invalid = """
                FROM \(tilesRelation) WHERE NOT (zoom_level BETWEEN 0 AND \(TileID.maxZoom) AND tile_column >= 0
                  AND tile_row >= 0 AND tile_column < (1 << zoom_level) AND tile_row < (1 << zoom_level))
                """
            let count = Int(try connection.scalar("SELECT count(*) \(invalid)")?.int64Value ?? 0)
            guard count > 0, let row = try connection.query("SELECT zoom_level, tile_column, tile_row \(invalid) LIMIT 1").first else { return nil }
            return (count, (Int(row[0].int64Value ?? -1), Int(row[1].int64Value ?? -1), Int(row[2].int64Value ?? -1)))
        }
    }

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(path): \(error)")
        }
    }
}
