import Foundation

/// Tile formats as MBTiles names them, recognised from a tile's first bytes.
public enum TileFormat {
    /// `png`, `jpg`, `webp`, `gif` or `pbf` (gzip or zlib-compressed vector tiles), or nil.
    public static func sniff(_ data: Data) -> String? {
        let b = [UInt8](data.prefix(12))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if b.count >= 12 && b.starts(with: Array("RIFF".utf8)) && Array(b[8..<12]) == Array("WEBP".utf8) { return "webp" }
        if b.starts(with: Array("GIF8".utf8)) { return "gif" }
        if b.starts(with: [0x1F, 0x8B]) || (b.first == 0x78 && b.count > 1) { return "pbf" }
        return nil
    }
}
