import Foundation
import HTTP
import TestSupport

/// The tiles of a testdata MBTiles file as sqlite3 (the command-line shell, an independent
/// reader) returns them, keyed by XYZ "z/x/y".
func tilesFromSQLite(_ mbtiles: String = "ne_raster_z0-5.mbtiles", maxZoom: Int) throws -> [String: Data] {
    let sql = "SELECT zoom_level, tile_column, (1 << zoom_level) - 1 - tile_row, hex(tile_data) FROM tiles WHERE zoom_level <= \(maxZoom)"
    let result = try runProcess("sqlite3", ["-separator", " ", TestData.url(mbtiles).path, sql])
    guard result.status == 0 else { throw TileServerError(description: "sqlite3 failed: \(result.stderr)") }
    var tiles: [String: Data] = [:]
    for line in result.stdout.split(separator: "\n") {
        let fields = line.split(separator: " ")
        guard fields.count == 4 else { continue }
        tiles["\(fields[0])/\(fields[1])/\(fields[2])"] = Data(hex: fields[3])
    }
    return tiles
}

/// Every XYZ tile address of zooms `0...maxZoom`.
func tileKeys(maxZoom: Int) -> [String] {
    (0...maxZoom).flatMap { z in
        (0..<(1 << z)).flatMap { x in (0..<(1 << z)).map { y in "\(z)/\(x)/\(y)" } }
    }
}

/// Requests for `keys` against `server`, tagged with their key.
func requests(_ keys: [String], on server: TestTileServer, query: String = "") -> [HTTPRequest<String>] {
    keys.map { HTTPRequest(url: "\(server.baseURL)/\($0).png\(query)", tag: $0) }
}

/// A configuration with quick retries, so tests of faults stay fast. The low-speed window
/// (5 s) is long enough that a loaded machine's slow server does not look stalled; the tests
/// of stalls shorten it.
func quickConfiguration(concurrency: Int = 4) -> HTTPConfiguration {
    var configuration = HTTPConfiguration()
    configuration.concurrency = concurrency
    configuration.initialBackoff = 0.02
    configuration.maxBackoff = 0.2
    configuration.lowSpeedTime = 5
    configuration.connectTimeout = 5
    configuration.transferTimeout = 20
    configuration.userAgent = HTTPConfiguration.userAgent(version: "9.8.7")
    return configuration
}

/// Fetches everything and returns the responses by tag.
func fetchAll(_ requests: [HTTPRequest<String>], _ configuration: HTTPConfiguration) throws -> [String: HTTPResponse<String>] {
    let client = try HTTPClient(configuration: configuration)
    var responses: [String: HTTPResponse<String>] = [:]
    try client.fetch(requests) { responses[$0.tag] = $0 }
    return responses
}

extension Data {
    init(hex: Substring) {
        var bytes = [UInt8]()
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for c in hex.utf8 {
            let v: UInt8 = c <= 57 ? c - 48 : (c | 0x20) - 87
            if let h = high { bytes.append(h << 4 | v); high = nil } else { high = v }
        }
        self.init(bytes)
    }
}

func seconds(since start: Date) -> Double { Date().timeIntervalSince(start) }
