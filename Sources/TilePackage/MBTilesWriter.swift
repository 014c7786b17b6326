import Foundation
import SQLite

/// Writes an MBTiles 1.3 file with deduplicated storage: each distinct tile's bytes once in
/// `images`, the tile numbers in `map`, and a `tiles` view joining them that every MBTiles
/// reader (GDAL, mbutil, MapLibre) reads as the plain table. Rows are TMS (from the south).
///
/// Identical tiles are found through a hash table in memory (see `ImageHashTable`), not an
/// index in the file: nothing to maintain per insert, and nothing left in the output that
/// readers do not need.
///
/// Opening an existing file goes on where it stopped: tiles already present are kept and can
/// be skipped with `contains(_:)`, and their images are shared by identical tiles written later.
///
/// - Important: not thread-safe (it owns one SQLite connection).
public final class MBTilesWriter {
    public let path: String
    let connection: Connection
    private let insertMap: Statement
    private let insertImage: Statement
    private let imageBytes: Statement
    private let sameImages: Statement
    private let lookupMap: Statement
    private let hashes = ImageHashTable()
    /// The id a new image gets when the id of its tile's position is taken (see
    /// `imageID(forTileAt:)`), counting up from `firstSpareImageID`.
    private var nextSpareImageID = MBTilesWriter.firstSpareImageID

    /// Creates the file, or opens it to resume.
    /// - Throws: `TilePackageError(.io)` naming the path.
    public init(path: String) throws {
        self.path = path
        do {
            // As a URI, so that a source file can be attached read-only (`MBTilesDirectCopy`).
            connection = try Connection(path: MBTilesWriter.fileURI(path), mode: .create, uri: true)
            // A rollback journal: pages appended by a batch are not journaled, so bulk writes
            // go to disk once (a WAL would write them twice, once more at the checkpoint), and
            // a crash still loses at most the batch in flight.
            try connection.setJournalMode(.delete)
            // SQLite's default page cache (2 MB): images are appended and tile numbers mostly
            // too, so a larger cache would only hold pages already written.
            try connection.execute("PRAGMA synchronous = NORMAL")
            // Large pages (for a new file; an existing one keeps its own): tiles of tens of
            // kilobytes fit in one page instead of a chain of overflow pages, and the file is
            // written in fewer, larger writes.
            try connection.execute("PRAGMA page_size = 32768")
            // One transaction: one commit (two fsyncs) for the whole schema.
            try connection.execute("""
                BEGIN IMMEDIATE;
                CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT);
                CREATE UNIQUE INDEX IF NOT EXISTS metadata_name ON metadata (name);
                CREATE TABLE IF NOT EXISTS map (
                    zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL,
                    tile_id INTEGER NOT NULL,
                    PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS images (tile_id INTEGER PRIMARY KEY, tile_data BLOB NOT NULL);
                CREATE VIEW IF NOT EXISTS tiles AS
                    SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                           map.tile_row AS tile_row, images.tile_data AS tile_data
                    FROM map JOIN images ON images.tile_id = map.tile_id;
                COMMIT;
                """)
            insertMap = try connection.prepare("INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
            insertImage = try connection.prepare("INSERT OR IGNORE INTO images (tile_id, tile_data) VALUES (?, ?)")
            imageBytes = try connection.prepare("SELECT tile_data FROM images WHERE tile_id = ?")
            sameImages = try connection.prepare("SELECT (SELECT tile_data FROM images WHERE tile_id = ?1) = (SELECT tile_data FROM images WHERE tile_id = ?2)")
            lookupMap = try connection.prepare("SELECT 1 FROM map WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
            // Resuming: the images so far are shared by identical tiles written from now on.
            try connection.forEachRow("SELECT tile_id, tile_data FROM images") { row in
                let id = row.int64(at: 0)
                hashes.insert(hash: row.withBytes(at: 1) { ImageHashTable.hash($0) }, id: id)
                nextSpareImageID = max(nextSpareImageID, id + 1)
            }
        } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(path): cannot write MBTiles: \(error.reasonAfterPath)")
        }
    }

    /// A `file:` URI naming `path` (percent-encoded, absolute).
    static func fileURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? absolute)
    }

    /// Starts a batch: the writes until `commitBatch()` become durable together.
    public func beginBatch() throws {
        try wrap { try connection.execute("BEGIN IMMEDIATE") }
    }

    /// Makes the batch's writes durable.
    public func commitBatch() throws {
        try wrap { try connection.execute("COMMIT") }
    }

    /// Makes the open batch's writes durable; nothing when no batch is open.
    public func commitOpenBatch() throws {
        if connection.isInTransaction { try commitBatch() }
    }

    /// Drops the batch's writes (after an error or a cancellation); harmless outside a batch.
    public func rollbackBatch() {
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    /// Whether the file already has the tile (after an interrupted run).
    public func contains(_ tile: TileID) throws -> Bool {
        try wrap {
            defer { lookupMap.reset() }
            try lookupMap.bind([.integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.tmsY))])
            return try lookupMap.step()
        }
    }

    /// Stores one tile, replacing any earlier one of the same numbers; identical bytes
    /// already stored are shared, not stored twice.
    public func write(_ tile: TileID, data: Data) throws {
        try wrap {
            let id = try data.withUnsafeBytes { bytes in
                let hash = ImageHashTable.hash(bytes)
                if let id = try storedImageID(for: bytes, hash: hash) { return id }
                var id = MBTilesWriter.imageID(forTileAt: tile.z, column: tile.x, tmsRow: tile.tmsY)
                if try !insert(bytes, as: id) {
                    // Taken (the tile is written a second time, with other bytes).
                    id = nextSpareImageID
                    nextSpareImageID += 1
                    guard try insert(bytes, as: id) else {
                        throw SQLiteError(extendedCode: 19, message: "image id \(id) already taken")
                    }
                }
                rememberImage(hash: hash, id: id)
                return id
            }
            defer { insertMap.reset() }
            try insertMap.bind([.integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.tmsY)), .integer(id)])
            try insertMap.step()
        }
    }

    /// Stores an image under `id`; false when the id is taken.
    private func insert(_ bytes: UnsafeRawBufferPointer, as id: Int64) throws -> Bool {
        try insertImage.bind(.integer(id), at: 1)
        // withBlob resets the statement once stepped.
        try insertImage.withBlob(bytes, boundAt: 2) { _ = try insertImage.step() }
        return connection.changes == 1
    }

    /// The id under which a new image first used by the tile at these numbers is stored: a
    /// number only that position has (the tiles of all shallower zooms first, then column
    /// by column), so that a copy inside SQLite can compute it (`MBTilesDirectCopy`).
    /// Below `firstSpareImageID` for every zoom up to `TileID.maxZoom`.
    static func imageID(forTileAt z: Int, column: Int, tmsRow: Int) -> Int64 {
        Int64(firstImageID(ofZoom: z) + (column << z) + tmsRow)
    }

    /// The id of the first tile position of zoom `z`: the (4^z - 1) / 3 positions of the
    /// zooms above come before it.
    static func firstImageID(ofZoom z: Int) -> Int {
        ((1 << (2 * z)) - 1) / 3
    }

    /// Where the ids for images whose position id is taken start: above every position id.
    static let firstSpareImageID: Int64 = 1 << 62

    /// A stored image with exactly `bytes` (whose hash is `hash`), when one is known.
    func storedImageID(for bytes: UnsafeRawBufferPointer, hash: UInt64) throws -> Int64? {
        // Candidates are compared byte for byte: a collision never shares the wrong image.
        // An id whose image a rolled-back batch took away compares unequal, and is passed over.
        try hashes.firstID(for: hash, where: { try storedImage($0, equals: bytes) })
    }

    /// Records that image `id`, stored in this transaction, has bytes of `hash`.
    func rememberImage(hash: UInt64, id: Int64) {
        hashes.insert(hash: hash, id: id)
    }

    /// Records the stored image `id`, whose bytes have `hash`, unless the table knows another
    /// stored image with the same bytes: that one is returned instead (and `id` is then
    /// redundant).
    func recordImage(_ id: Int64, hash: UInt64) throws -> Int64? {
        if let earlier = try hashes.firstID(for: hash, where: { candidate in try candidate != id && storedImages(candidate, equal: id) }) {
            return earlier
        }
        hashes.insert(hash: hash, id: id)
        return nil
    }

    private func storedImages(_ a: Int64, equal b: Int64) throws -> Bool {
        defer { sameImages.reset() }
        try sameImages.bind([.integer(a), .integer(b)])
        return try sameImages.step() && sameImages.int64(at: 0) == 1
    }

    /// Whether the stored image `id` has exactly `bytes`.
    func storedImage(_ id: Int64, equals bytes: UnsafeRawBufferPointer) throws -> Bool {
        defer { imageBytes.reset() }
        try imageBytes.bind(.integer(id), at: 1)
        guard try imageBytes.step() else { return false }
        return imageBytes.withBytes(at: 0) { stored in
            guard stored.count == bytes.count else { return false }
            // Both empty when either has no address (the count is 0).
            guard let a = stored.baseAddress, let b = bytes.baseAddress else { return true }
            return memcmp(a, b, bytes.count) == 0
        }
    }

    /// Makes room in the deduplication table for `count` distinct images in all, at once.
    public func reserveImages(_ count: Int) {
        hashes.reserve(count)
    }

    /// Sets metadata entries (replacing those of the same names) in one transaction, or in
    /// the open batch; a nil value removes one.
    public func setMetadata(_ entries: [(String, String?)]) throws {
        try wrap {
            try connection.withTransaction(.immediate) { try setEach(entries) }
        }
    }

    private func setEach(_ entries: [(String, String?)]) throws {
        for (name, value) in entries {
            if let value {
                try connection.execute("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)", [.text(name), .text(value)])
            } else {
                try connection.execute("DELETE FROM metadata WHERE name = ?", [.text(name)])
            }
        }
    }

    /// The metadata entries stored so far.
    public func metadataValue(_ name: String) throws -> String? {
        try wrap { try connection.scalar("SELECT value FROM metadata WHERE name = ?", [.text(name)])?.stringValue }
    }

    /// The lowest and highest zoom with at least one tile written; nil when none is.
    public func writtenZooms() throws -> ClosedRange<Int>? {
        try wrap {
            // Two subqueries: SQLite seeks the primary key's ends for a lone min() or max(),
            // but scans the whole table for both in one SELECT.
            guard let row = try connection.query("SELECT (SELECT min(zoom_level) FROM map), (SELECT max(zoom_level) FROM map)").first,
                  let lo = row[0].int64Value, let hi = row[1].int64Value else { return nil }
            return Int(lo)...Int(hi)
        }
    }

    /// The zooms of `zooms` with at least one tile written, in order: one primary-key seek a
    /// zoom, where `SELECT DISTINCT zoom_level` would read every tile.
    public func heldZooms(among zooms: ClosedRange<Int>) throws -> [Int] {
        try wrap {
            try zooms.filter { z in
                try connection.scalar("SELECT EXISTS (SELECT 1 FROM map WHERE zoom_level = ?)", [.integer(Int64(z))])?.int64Value == 1
            }
        }
    }

    /// Whether no tile is stored yet.
    public func isEmpty() throws -> Bool {
        try wrap { try connection.scalar("SELECT NOT EXISTS (SELECT 1 FROM map)")?.int64Value == 1 }
    }

    /// The bytes of one stored image, any, or nil when there is none.
    func anyImage() throws -> Data? {
        try wrap { try connection.scalar("SELECT tile_data FROM images LIMIT 1")?.blobValue.map { Data($0) } }
    }

    /// Leaves the file in rollback-journal mode, one self-contained file any reader opens
    /// (read-only media included), also when it was begun by a version that used a WAL.
    public func finish() throws {
        try wrap { try connection.setJournalMode(.delete) }
    }

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(path): \(error)")
        }
    }
}
