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
    /// How the file stores its tiles.
    let layout: Layout
    /// The table holding the tile numbers (`tiles`, or `map` behind a view or a join), where
    /// an index on them would be.
    let numbersTable: String
    /// The single-tile and rectangle-size lookups, prepared once.
    private let statements: StatementCache

    enum Layout {
        /// A `tiles` table, or a view of that name.
        case tiles
        /// `map` + `images` without a `tiles` view.
        case mapAndImages
    }

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
            statements = StatementCache(connection)
            var kinds: [String: String] = [:]
            try connection.forEachRow("SELECT lower(name), type FROM sqlite_master WHERE type IN ('table', 'view')") { row in
                if let name = row.string(at: 0) { kinds[name] = row.string(at: 1) }
            }
            let hasMapAndImages = kinds["map"] == "table" && kinds["images"] == "table"
            if let tiles = kinds["tiles"] {
                layout = .tiles
                numbersTable = tiles == "view" && hasMapAndImages ? "map" : "tiles"
            } else if hasMapAndImages {
                layout = .mapAndImages
                numbersTable = "map"
            } else {
                throw TilePackageError(.invalidInput, "\(path): not an MBTiles file (no tiles table, nor map and images)")
            }
        } catch let error as SQLiteError {
            throw TilePackageError(.invalidInput, "\(path): cannot be read as MBTiles: \(error.reasonAfterPath)")
        }
    }

    /// The relation tiles are read from (`zoom_level`, `tile_column`, `tile_row`,
    /// `tile_data`): `tiles`, or a join of `map` and `images`; qualified by `schema` when the
    /// file is attached to another connection under that name.
    func tilesRelation(schema: String? = nil) -> String {
        let prefix = schema.map { "\($0)." } ?? ""
        switch layout {
        case .tiles:
            return "\(prefix)tiles"
        case .mapAndImages:
            return """
                (SELECT m.zoom_level AS zoom_level, m.tile_column AS tile_column, m.tile_row AS tile_row, \
                i.tile_data AS tile_data FROM \(prefix)map AS m JOIN \(prefix)images AS i ON i.tile_id = m.tile_id)
                """
        }
    }

    var tilesRelation: String { tilesRelation() }

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
            let statement = try statements.statement(
                "SELECT tile_data FROM \(tilesRelation) WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
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
            // Prepared once: an estimate asks for every rectangle of a coverage (thousands for a
            // polygon at deep zooms).
            let statement = try statements.statement("""
                SELECT count(*), coalesce(sum(length(tile_data)), 0) FROM \(tilesRelation)
                WHERE zoom_level = ? AND tile_column BETWEEN ? AND ? AND tile_row BETWEEN ? AND ?
                """)
            defer { statement.reset() }
            try statement.bind([.integer(Int64(range.z)), .integer(Int64(range.minX)), .integer(Int64(range.maxX)),
                                .integer(Int64(range.minTMSY)), .integer(Int64(range.maxTMSY))])
            guard try statement.step() else { return (0, 0) }
            return (Int(statement.int64(at: 0)), Int(statement.int64(at: 1)))
        }
    }

    /// Rows whose zoom, column or row cannot exist: how many, and one of them as stored
    /// (zoom, column, TMS row), or nil when there are none.
    ///
    /// - Parameter zooms: look only at these zooms (those a copy reads); nil looks at every
    ///   row, zoom levels that cannot exist included.
    ///
    /// With an index on the tile numbers (every MBTiles writer makes one) this seeks rather
    /// than scans: per zoom, the columns out of range, then per column present, the rows
    /// out of range; its cost grows with the columns and the bad rows, not with the tiles.
    public func outOfRangeRows(zooms: ClosedRange<Int>? = nil) throws -> (count: Int, example: (zoom: Int, column: Int, row: Int))? {
        try wrap {
            let table = numbersTable
            let lo = max(0, zooms?.lowerBound ?? 0), hi = min(TileID.maxZoom, zooms?.upperBound ?? TileID.maxZoom)
            var invalid = """
                (zoom_level BETWEEN \(lo) AND \(hi) AND NOT (tile_column >= 0 AND tile_row >= 0 \
                AND tile_column < (1 << zoom_level) AND tile_row < (1 << zoom_level)))
                """
            if zooms == nil { invalid += " OR NOT (zoom_level BETWEEN 0 AND \(TileID.maxZoom))" }
            var count = 0
            if lo <= hi {
                if try hasNumbersIndex() {
                    count = Int(try connection.scalar(Self.skipScanCount(table), [.integer(Int64(lo)), .integer(Int64(hi))])?.int64Value ?? 0)
                } else {
                    count = Int(try connection.scalar("SELECT count(*) FROM \(table) WHERE zoom_level BETWEEN \(lo) AND \(hi) AND \(invalid)")?.int64Value ?? 0)
                }
            }
            if zooms == nil {
                count += Int(try connection.scalar("SELECT count(*) FROM \(table) WHERE NOT (zoom_level BETWEEN 0 AND \(TileID.maxZoom))")?.int64Value ?? 0)
            }
            guard count > 0, let row = try connection.query("SELECT zoom_level, tile_column, tile_row FROM \(table) WHERE \(invalid) LIMIT 1").first else { return nil }
            return (count, (Int(row[0].int64Value ?? -1), Int(row[1].int64Value ?? -1), Int(row[2].int64Value ?? -1)))
        }
    }

    /// Counts the out-of-range rows of zooms ?1...?2 by index seeks: the columns outside the
    /// zoom, then, walking the valid columns present one `min()` seek at a time, the rows
    /// outside it in each.
    private static func skipScanCount(_ table: String) -> String {
        """
        WITH RECURSIVE
            zoom(z) AS (SELECT ?1 UNION ALL SELECT z + 1 FROM zoom WHERE z < ?2),
            col(z, x) AS (
                SELECT z, (SELECT min(tile_column) FROM \(table) WHERE zoom_level = zoom.z AND tile_column >= 0) FROM zoom
                UNION ALL
                SELECT z, (SELECT min(tile_column) FROM \(table) WHERE zoom_level = col.z AND tile_column > col.x) FROM col
                WHERE x IS NOT NULL AND x < (1 << z))
        SELECT
            (SELECT coalesce(sum(
                (SELECT count(*) FROM \(table) WHERE zoom_level = zoom.z AND tile_column < 0)
                + (SELECT count(*) FROM \(table) WHERE zoom_level = zoom.z AND tile_column >= (1 << zoom.z))), 0) FROM zoom)
            + (SELECT coalesce(sum(
                (SELECT count(*) FROM \(table) WHERE zoom_level = col.z AND tile_column = col.x AND tile_row < 0)
                + (SELECT count(*) FROM \(table) WHERE zoom_level = col.z AND tile_column = col.x AND tile_row >= (1 << col.z))), 0)
               FROM col WHERE x IS NOT NULL AND x < (1 << z))
        """
    }

    /// Whether an index (or a WITHOUT ROWID primary key) leads with zoom_level,
    /// tile_column, tile_row on the numbers table, so that those can be sought.
    func hasNumbersIndex() throws -> Bool {
        let indexes = try connection.query("SELECT name FROM pragma_index_list(?)", [.text(numbersTable)]).compactMap { $0.first?.stringValue }
        for index in indexes {
            let columns = try connection.query("SELECT lower(name) FROM pragma_index_info(?) ORDER BY seqno", [.text(index)])
                .compactMap { $0.first?.stringValue }
            if columns.starts(with: ["zoom_level", "tile_column", "tile_row"]) { return true }
        }
        return false
    }

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(path): \(error)")
        }
    }
}
