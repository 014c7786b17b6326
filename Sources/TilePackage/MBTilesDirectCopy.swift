import Foundation
import SQLite

/// Copies rectangles of tiles from an MBTiles file into an `MBTilesWriter`'s file inside
/// SQLite, the way a person would with the `sqlite3` shell: the source is attached
/// read-only and each rectangle is two `INSERT ... SELECT` statements by zoom, column and
/// row ranges, one for the new images and one for the tile numbers. No tile's bytes cross
/// into Swift; two small functions registered on the connection hash them in place and
/// hand out image ids from the writer's deduplication table, so identical tiles are
/// stored once as they are with `MBTilesWriter.write`.
///
/// Rows whose numbers lie outside their zoom's range are never selected: the rectangles
/// come from a `TileCoverage`, always inside the zoom.
///
/// - Important: not thread-safe (it uses the writer's connection). Call `close()` when done:
///   the registered functions hold on to this object.
final class MBTilesDirectCopy {
    /// The most tiles one rectangle of `copy(_:resuming:)` may hold.
    static let maximumTiles = 8192
    static let schema = "pkgbuild_source"

    let writer: MBTilesWriter
    /// Bytes of tile data selected so far (every tile, shared images included).
    var bytes: Int { selection.bytes }
    private let connection: Connection
    private let selection: Selection
    private let insertImages: Statement
    private let insertMap: Statement
    private let insertMissingImages: Statement
    private let insertMissingMap: Statement
    private let countSource: Statement
    private let countMap: Statement
    private var isOpen = true

    /// Attaches `source`'s file to the writer's connection.
    /// - Throws: `TilePackageError(.io)` when it cannot be attached or read.
    init(writer: MBTilesWriter, source: MBTilesReader) throws {
        self.writer = writer
        connection = writer.connection
        let selection = Selection(writer: writer)
        self.selection = selection
        do {
            try connection.execute("ATTACH DATABASE ? AS \(Self.schema)", [.text(MBTilesWriter.fileURI(source.path) + "?mode=ro")])
        } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(source.path): cannot attach to \(writer.path): \(error)")
        }
        do {
            try connection.createInPlaceFunction("pkgbuild_new_image", argumentCount: 3, deterministic: false) { args in
                try .integer(selection.newImage(args) ? 1 : 0)
            }
            try connection.createInPlaceFunction("pkgbuild_image_id", argumentCount: 2, deterministic: false) { args in
                try .integer(selection.imageID(column: args.int64(at: 0), row: args.int64(at: 1)))
            }
            let relation = source.tilesRelation(schema: Self.schema)
            let inChunk = "s.zoom_level = ?1 AND s.tile_column BETWEEN ?2 AND ?3 AND s.tile_row BETWEEN ?4 AND ?5"
            let notCopied = "NOT EXISTS (SELECT 1 FROM main.map AS m WHERE m.zoom_level = ?1 AND m.tile_column = s.tile_column AND m.tile_row = s.tile_row)"
            // pkgbuild_new_image comes last in the WHERE clause, so it sees only the rows
            // selected.
            // New images take the next rowid, which is the id pkgbuild_new_image handed out
            // (ids are handed out in insertion order; `copy` checks it): appending without
            // a rowid is the cheapest insert SQLite has.
            func images(_ filter: String) -> String {
                """
                INSERT INTO main.images (tile_data)
                SELECT s.tile_data FROM \(relation) AS s
                WHERE \(inChunk)\(filter) AND pkgbuild_new_image(s.tile_column, s.tile_row, s.tile_data)
                """
            }
            func map(_ filter: String) -> String {
                """
                INSERT OR REPLACE INTO main.map (zoom_level, tile_column, tile_row, tile_id)
                SELECT ?1, s.tile_column, s.tile_row, pkgbuild_image_id(s.tile_column, s.tile_row) FROM \(relation) AS s
                WHERE \(inChunk)\(filter)
                """
            }
            insertImages = try connection.prepare(images(""))
            insertMap = try connection.prepare(map(""))
            insertMissingImages = try connection.prepare(images(" AND " + notCopied))
            insertMissingMap = try connection.prepare(map(" AND " + notCopied))
            countSource = try connection.prepare("SELECT count(*) FROM \(relation) AS s WHERE \(inChunk)")
            countMap = try connection.prepare("SELECT count(*) FROM main.map AS s WHERE \(inChunk)")
        } catch let error as SQLiteError {
            try? Self.close(connection)
            throw TilePackageError(.io, "\(source.path): cannot be copied into \(writer.path): \(error)")
        }
    }

    /// Copies the tiles the source has inside `range` (at most `maximumTiles`), in the
    /// writer's open batch.
    /// - Parameter resuming: the output may already hold some of these tiles (from an
    ///   interrupted run); they are kept and counted, not copied again.
    /// - Returns: the tiles copied, and those found already copied.
    func copy(_ range: TileRange, resuming: Bool) throws -> (written: Int, kept: Int) {
        precondition(range.count <= Self.maximumTiles, "rectangle of \(range.count) tiles, more than \(Self.maximumTiles)")
        guard !range.isEmpty else { return (0, 0) }
        let arguments: [SQLiteValue] = [.integer(Int64(range.z)), .integer(Int64(range.minX)), .integer(Int64(range.maxX)),
                                         .integer(Int64(range.minTMSY)), .integer(Int64(range.maxTMSY))]
        var kept = 0
        var images = insertImages, map = insertMap
        if resuming {
            kept = try count(countMap, arguments)
            if kept > 0 {
                if kept >= (try count(countSource, arguments)) { return (0, kept) }
                images = insertMissingImages
                map = insertMissingMap
            }
        }
        selection.start(range)
        defer { selection.end() }
        do {
            let firstNew = writer.nextImageID
            try run(images, arguments)
            let added = writer.nextImageID - firstNew
            guard connection.changes == added, added == 0 || connection.lastInsertRowID == writer.nextImageID - 1 else {
                throw TilePackageError(.io, "\(writer.path): images of \(range) stored under other ids than handed out "
                    + "(\(connection.changes) stored, \(added) handed out, last id \(connection.lastInsertRowID))")
            }
            try run(map, arguments)
        } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(writer.path): copying \(range): \(error)")
        }
        return (connection.changes, kept)
    }

    /// Removes the functions and detaches the source.
    func close() throws {
        guard isOpen else { return }
        isOpen = false
        do {
            try Self.close(connection)
        } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(writer.path): \(error)")
        }
    }

    private static func close(_ connection: Connection) throws {
        try? connection.removeFunction("pkgbuild_new_image", argumentCount: 3)
        try? connection.removeFunction("pkgbuild_image_id", argumentCount: 2)
        try connection.execute("DETACH DATABASE \(schema)")
    }

    private func run(_ statement: Statement, _ arguments: [SQLiteValue]) throws {
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    private func count(_ statement: Statement, _ arguments: [SQLiteValue]) throws -> Int {
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? Int(statement.int64(at: 0)) : 0
    }

}

/// What the two functions registered by `MBTilesDirectCopy` share while a rectangle is
/// copied: the image id chosen for each of its tiles.
private final class Selection {
    let writer: MBTilesWriter
    var bytes = 0
    /// The rectangle being copied, and per tile in it (column-major, TMS rows) the image id
    /// chosen for it, 0 for none yet.
    private var chunk = TileRange(z: 0, minX: 0, maxX: -1, minY: 0, maxY: -1)
    private var ids: [Int64] = []

    init(writer: MBTilesWriter) { self.writer = writer }

    func start(_ range: TileRange) {
        chunk = range
        ids = Array(repeating: 0, count: range.count)
    }

    func end() { ids = [] }

    /// `pkgbuild_new_image(tile_column, tile_row, tile_data)`: chooses the tile's image (a
    /// stored one with the same bytes, or a new id); true when the bytes are new and the
    /// calling INSERT stores them under that id.
    func newImage(_ args: SQLiteArguments) throws -> Bool {
        let slot = try index(column: args.int64(at: 0), row: args.int64(at: 1))
        let (id, isNew) = try args.withBytes(at: 2) { bytes in
            self.bytes += bytes.count
            return try writer.imageID(for: bytes)
        }
        ids[slot] = id
        return isNew
    }

    /// `pkgbuild_image_id(tile_column, tile_row)`: the image `pkgbuild_new_image` chose.
    func imageID(column: Int64, row: Int64) throws -> Int64 {
        let id = ids[try index(column: column, row: row)]
        guard id != 0 else {
            throw TilePackageError(.io, "no image chosen for tile \(chunk.z)/\(column)/\(row) (TMS) of \(chunk)")
        }
        return id
    }

    private func index(column: Int64, row: Int64) throws -> Int {
        let x = Int(column) - chunk.minX, y = Int(row) - chunk.minTMSY
        let height = chunk.maxY - chunk.minY + 1
        guard x >= 0, x <= chunk.maxX - chunk.minX, y >= 0, y < height else {
            throw TilePackageError(.io, "tile \(chunk.z)/\(column)/\(row) (TMS) selected outside \(chunk)")
        }
        return x * height + y
    }
}
