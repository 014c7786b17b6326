import Foundation
import SQLite

/// Copies rectangles of tiles from an MBTiles file into an `MBTilesWriter`'s file inside
/// SQLite, the way a person would with the `sqlite3` shell: the source is attached
/// read-only and each rectangle is two `INSERT ... SELECT` statements by zoom, column and
/// row ranges, one for the images and one for the tile numbers. No tile's bytes cross into
/// Swift: a function registered on the connection hashes them in place, and lets through
/// the tiles whose bytes are new (see `Selection`). Those are stored under the id of their
/// position (`MBTilesWriter.imageID(forTileAt:)`), which the second statement computes in
/// SQL; the tiles that repeat a stored image are then pointed at it one by one.
///
/// Rows whose numbers lie outside their zoom's range are never selected: the rectangles
/// come from a `TileCoverage`, always inside the zoom.
///
/// - Important: not thread-safe (it uses the writer's connection). Call `close()` when done:
///   the registered function holds on to this object's state.
final class MBTilesDirectCopy {
    /// The most tiles one rectangle of `copy(_:resuming:)` may hold.
    static let maximumTiles = 8192
    static let schema = "pkgbuild_source"

    let writer: MBTilesWriter
    let source: MBTilesReader
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
    private let pointAtImage: Statement
    private let deleteImage: Statement
    private var isOpen = true

    /// Attaches `source`'s file to the writer's connection.
    /// - Throws: `TilePackageError(.io)` when it cannot be attached or read.
    init(writer: MBTilesWriter, source: MBTilesReader) throws {
        self.writer = writer
        self.source = source
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
                try .integer(selection.isNew(args) ? 1 : 0)
            }
            let relation = source.tilesRelation(schema: Self.schema)
            // ?1 zoom, ?2...?3 columns, ?4...?5 TMS rows, ?6 the zoom's first image id.
            // The columns are listed one by one, not given as a range: with a range SQLite
            // walks every row of those columns in the (zoom, column, row) index and filters
            // the rows afterwards; with a list it seeks each column's stretch of rows.
            let columns = "WITH RECURSIVE c(x) AS (SELECT ?2 UNION ALL SELECT x + 1 FROM c WHERE x < ?3) SELECT x FROM c"
            let inChunk = "s.zoom_level = ?1 AND s.tile_column IN (\(columns)) AND s.tile_row BETWEEN ?4 AND ?5"
            let positionID = "?6 + (s.tile_column << ?1) + s.tile_row"
            let notCopied = "NOT EXISTS (SELECT 1 FROM main.map AS m WHERE m.zoom_level = ?1 AND m.tile_column = s.tile_column AND m.tile_row = s.tile_row)"
            // pkgbuild_new_image comes last in the WHERE clause, so it sees only the rows
            // selected. A plain INSERT: a position id already taken fails the statement
            // (SQLite undoes it), and `copy` goes tile by tile instead.
            func images(_ filter: String) -> String {
                """
                INSERT INTO main.images (tile_id, tile_data)
                SELECT \(positionID), s.tile_data FROM \(relation) AS s
                WHERE \(inChunk)\(filter) AND pkgbuild_new_image(s.tile_column, s.tile_row, s.tile_data)
                """
            }
            func map(_ filter: String) -> String {
                """
                INSERT OR REPLACE INTO main.map (zoom_level, tile_column, tile_row, tile_id)
                SELECT ?1, s.tile_column, s.tile_row, \(positionID) FROM \(relation) AS s
                WHERE \(inChunk)\(filter)
                """
            }
            insertImages = try connection.prepare(images(""))
            insertMap = try connection.prepare(map(""))
            insertMissingImages = try connection.prepare(images(" AND " + notCopied))
            insertMissingMap = try connection.prepare(map(" AND " + notCopied))
            countSource = try connection.prepare("SELECT count(*) FROM \(relation) AS s WHERE \(inChunk)")
            countMap = try connection.prepare("SELECT count(*) FROM main.map AS s WHERE \(inChunk)")
            pointAtImage = try connection.prepare("UPDATE main.map SET tile_id = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
            deleteImage = try connection.prepare("DELETE FROM main.images WHERE tile_id = ?")
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
                                         .integer(Int64(range.minTMSY)), .integer(Int64(range.maxTMSY)),
                                         .integer(Int64(MBTilesWriter.firstImageID(ofZoom: range.z)))]
        var kept = 0
        var images = insertImages, map = insertMap
        if resuming {
            let rectangle = Array(arguments.prefix(5))
            kept = try count(countMap, rectangle)
            if kept > 0 {
                if kept >= (try count(countSource, rectangle)) { return (0, kept) }
                images = insertMissingImages
                map = insertMissingMap
            }
        }
        selection.start(zoom: range.z)
        do {
            do {
                try run(images, arguments)
            } catch let error as SQLiteError where error.isConstraintViolation {
                return (try copyTileByTile(range, skippingCopied: kept > 0), kept)
            }
            try run(map, arguments)
            let written = connection.changes
            let late = try selection.settle()
            // A tile let through as new may turn out to repeat an earlier image: the tiles
            // pointed at its image go to the earlier one, and its image goes.
            var replaced: [Int64: Int64] = [:]
            for tile in late {
                replaced[tile.redundant] = tile.id
                try point(column: tile.column, row: tile.row, z: range.z, at: tile.id)
                defer { deleteImage.reset() }
                try deleteImage.bind(.integer(tile.redundant), at: 1)
                try deleteImage.step()
            }
            for repeated in selection.repeats {
                try point(column: repeated.column, row: repeated.row, z: range.z, at: replaced[repeated.id] ?? repeated.id)
            }
            return (written, kept)
        } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(writer.path): copying \(range): \(error)")
        }
    }

    private func point(column: Int64, row: Int64, z: Int, at id: Int64) throws {
        defer { pointAtImage.reset() }
        try pointAtImage.bind([.integer(id), .integer(Int64(z)), .integer(column), .integer(row)])
        try pointAtImage.step()
    }

    /// The way out when a tile's position id is taken (a source holding a tile twice, with
    /// different bytes): the rectangle tile by tile through `MBTilesWriter.write`.
    private func copyTileByTile(_ range: TileRange, skippingCopied: Bool) throws -> Int {
        var written = 0
        try source.forEachTile(in: range) { tile, data in
            if skippingCopied, try writer.contains(tile) { return }
            try writer.write(tile, data: data)
            selection.bytes += data.count
            written += 1
        }
        return written
    }

    /// Removes the function and detaches the source.
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

/// What the function registered by `MBTilesDirectCopy` keeps while a rectangle is copied.
///
/// The function must answer at once whether a tile's bytes are new, but looking each one
/// up in the writer's table (megabytes, out of the processor's cache while SQLite copies)
/// would stall on memory once a tile. So it asks only a small table of recent images, which
/// catches the runs of identical tiles (sea, empty land) that make up most repeats, and
/// lets the other tiles through as new; `settle()` then looks those up in the writer's
/// table in one tight loop, where the lookups overlap, and reports the few that repeat an
/// image after all.
private final class Selection {
    let writer: MBTilesWriter
    var bytes = 0
    private var zoom = 0
    /// Tiles of the rectangle whose bytes an image already stored holds (TMS rows).
    private(set) var repeats: [(column: Int64, row: Int64, id: Int64)] = []
    // The two tables the function touches on every call are plain buffers, not arrays held
    // by this class: an array property mutated in place is checked for overlapping access
    // at run time, at a cost that showed on every tile.
    /// Tiles let through as new, with their hash and image id, in the order stored: at most
    /// one rectangle's worth. Owned, freed in deinit.
    private let passed: UnsafeMutablePointer<(column: Int64, row: Int64, hash: UInt64, id: Int64)>
    private var passedCount = 0
    private static let passedCapacity = MBTilesDirectCopy.maximumTiles
    /// Recent images by hash, direct-mapped: 16 KiB, so it stays in the processor's cache.
    /// Owned, freed in deinit.
    private let recent: UnsafeMutablePointer<(hash: UInt64, id: Int64)>
    private static let recentCount = 1024

    init(writer: MBTilesWriter) {
        self.writer = writer
        passed = .allocate(capacity: Self.passedCapacity)
        recent = .allocate(capacity: Self.recentCount)
        recent.initialize(repeating: (0, 0), count: Self.recentCount)
    }

    deinit {
        passed.deallocate()
        recent.deallocate()
    }

    func start(zoom: Int) {
        self.zoom = zoom
        repeats.removeAll(keepingCapacity: true)
        passedCount = 0
    }

    /// `pkgbuild_new_image(tile_column, tile_row, tile_data)`: false when a recent image has
    /// these bytes; true otherwise, and the calling INSERT stores them under the tile's
    /// position id.
    func isNew(_ args: SQLiteArguments) throws -> Bool {
        let column = args.int64(at: 0), row = args.int64(at: 1)
        return try args.withBytes(at: 2) { data in
            bytes += data.count
            let hash = ImageHashTable.hash(data)
            let slot = Int(truncatingIfNeeded: hash) & (Self.recentCount - 1)
            let candidate = recent[slot]
            if candidate.hash == hash, try writer.storedImage(candidate.id, equals: data) {
                repeats.append((column, row, candidate.id))
                return false
            }
            // `copy` hands over at most one rectangle, each of whose rows SQLite passes once.
            guard passedCount < Self.passedCapacity else {
                throw TilePackageError(.io, "\(writer.path): more than \(Self.passedCapacity) tiles offered for one rectangle")
            }
            let id = MBTilesWriter.imageID(forTileAt: zoom, column: Int(column), tmsRow: Int(row))
            recent[slot] = (hash, id)
            passed[passedCount] = (column, row, hash, id)
            passedCount += 1
            return true
        }
    }

    /// Records the tiles let through in the writer's table; returns those whose bytes an
    /// earlier image holds after all, with that image's id.
    func settle() throws -> [(column: Int64, row: Int64, redundant: Int64, id: Int64)] {
        var late: [(column: Int64, row: Int64, redundant: Int64, id: Int64)] = []
        for tile in UnsafeBufferPointer(start: passed, count: passedCount) {
            if let earlier = try writer.recordImage(tile.id, hash: tile.hash) {
                late.append((tile.column, tile.row, tile.id, earlier))
            }
        }
        passedCount = 0
        return late
    }
}
