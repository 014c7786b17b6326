import Foundation
import SQLite

/// Writes an MBTiles 1.3 file with deduplicated storage: each distinct tile's bytes once in
/// `images`, the tile numbers in `map`, and a `tiles` view joining them that every MBTiles
/// reader (GDAL, mbutil, MapLibre) reads as the plain table. Rows are TMS (from the south).
///
/// Opening an existing file goes on where it stopped: tiles already present are kept and can
/// be skipped with `contains(_:)`.
///
/// - Important: not thread-safe (it owns one SQLite connection).
public final class MBTilesWriter {
    public let path: String
    let connection: Connection
    private let insertMap: Statement
    private let insertImage: Statement
    private let findImages: Statement
    private let lookupMap: Statement
    /// One bit per hash bucket: a clear bit proves no stored image has a hash in that bucket,
    /// which spares a lookup for every tile seen for the first time (most of them). 1 MiB.
    private var seenHashes = [UInt64](repeating: 0, count: 1 << 17)

    /// Creates the file, or opens it to resume.
    /// - Throws: `TilePackageError(.io)` naming the path.
    public init(path: String) throws {
        self.path = path
        do {
            connection = try Connection(path: path, mode: .create)
            // A rollback journal: pages appended by a batch are not journaled, so bulk writes
            // go to disk once (a WAL would write them twice, once more at the checkpoint), and
            // a crash still loses at most the batch in flight.
            try connection.setJournalMode(.delete)
            try connection.execute("""
                PRAGMA synchronous = NORMAL;
                PRAGMA cache_size = -16384;
                CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT);
                CREATE UNIQUE INDEX IF NOT EXISTS metadata_name ON metadata (name);
                CREATE TABLE IF NOT EXISTS map (
                    zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL,
                    tile_id INTEGER NOT NULL,
                    PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS images (
                    tile_id INTEGER PRIMARY KEY, tile_data BLOB NOT NULL, tile_hash INTEGER NOT NULL);
                CREATE INDEX IF NOT EXISTS images_hash ON images (tile_hash);
                CREATE VIEW IF NOT EXISTS tiles AS
                    SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                           map.tile_row AS tile_row, images.tile_data AS tile_data
                    FROM map JOIN images ON images.tile_id = map.tile_id;
                """)
            insertMap = try connection.prepare("INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
            insertImage = try connection.prepare("INSERT INTO images (tile_data, tile_hash) VALUES (?, ?)")
            findImages = try connection.prepare("SELECT tile_id, tile_data FROM images WHERE tile_hash = ?")
            lookupMap = try connection.prepare("SELECT 1 FROM map WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
            try connection.forEachRow("SELECT tile_hash FROM images") { row in
                markSeen(UInt64(bitPattern: row.int64(at: 0)))
            }
        } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(path): cannot write MBTiles: \(error)")
        }
    }

    /// Starts a batch: the writes until `commitBatch()` become durable together.
    public func beginBatch() throws {
        try wrap { try connection.execute("BEGIN IMMEDIATE") }
    }

    /// Makes the batch's writes durable.
    public func commitBatch() throws {
        try wrap { try connection.execute("COMMIT") }
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
            let bytes = [UInt8](data)
            let hash = MBTilesWriter.hash(bytes)
            var id: Int64?
            if isSeen(hash) {
                // Same hash bucket seen: compare bytes, so that a hash collision never shares
                // the wrong image.
                defer { findImages.reset() }
                try findImages.bind(.integer(Int64(bitPattern: hash)), at: 1)
                while try findImages.step() {
                    if findImages.blob(at: 1) == bytes {
                        id = findImages.int64(at: 0)
                        break
                    }
                }
            }
            if id == nil {
                defer { insertImage.reset() }
                try insertImage.bind([.blob(bytes), .integer(Int64(bitPattern: hash))])
                try insertImage.step()
                id = connection.lastInsertRowID
                markSeen(hash)
            }
            defer { insertMap.reset() }
            try insertMap.bind([.integer(Int64(tile.z)), .integer(Int64(tile.x)), .integer(Int64(tile.tmsY)), .integer(id ?? 0)])
            try insertMap.step()
        }
    }

    /// Sets metadata entries (replacing those of the same names); a nil value removes one.
    public func setMetadata(_ entries: [(String, String?)]) throws {
        try wrap {
            for (name, value) in entries {
                if let value {
                    try connection.execute("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)", [.text(name), .text(value)])
                } else {
                    try connection.execute("DELETE FROM metadata WHERE name = ?", [.text(name)])
                }
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
            guard let row = try connection.query("SELECT min(zoom_level), max(zoom_level) FROM map").first,
                  let lo = row[0].int64Value, let hi = row[1].int64Value else { return nil }
            return Int(lo)...Int(hi)
        }
    }

    /// The number of tiles stored.
    public func tileCount() throws -> Int {
        try wrap { Int(try connection.scalar("SELECT count(*) FROM map")?.int64Value ?? 0) }
    }

    /// Leaves the file in rollback-journal mode, one self-contained file any reader opens
    /// (read-only media included), also when it was begun by a version that used a WAL.
    public func finish() throws {
        try wrap { try connection.setJournalMode(.delete) }
    }

    // FNV-1a, 64 bits: fast, and collisions cost only a comparison (see `write`).
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { buffer in
            for b in buffer {
                h ^= UInt64(b)
                h = h &* 0x0000_0100_0000_01b3
            }
        }
        return h
    }

    private func bucket(_ hash: UInt64) -> (Int, UInt64) {
        // The top bits: FNV's low bits mix least.
        let bit = Int(truncatingIfNeeded: hash >> 41)  // 23 bits: 2^23 buckets
        return (bit >> 6, 1 << UInt64(bit & 63))
    }

    private func isSeen(_ hash: UInt64) -> Bool {
        let (word, mask) = bucket(hash)
        return seenHashes[word] & mask != 0
    }

    private func markSeen(_ hash: UInt64) {
        let (word, mask) = bucket(hash)
        seenHashes[word] |= mask
    }

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SQLiteError {
            throw TilePackageError(.io, "\(path): \(error)")
        }
    }
}
