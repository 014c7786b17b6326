import Foundation
import Geometry
import HTTP
import TestSupport
import Testing
import TilePackage

@Suite("HTTP tile source against a real local server")
struct HTTPTileSourceTests {
    /// XYZ tile -> bytes, as the sqlite3 shell reads them from the MBTiles (TMS rows flipped in SQL).
    private func expectedTiles(maxZoom: Int) throws -> [TileID: Data] {
        let sql = "SELECT zoom_level, tile_column, (1 << zoom_level) - 1 - tile_row, hex(tile_data) FROM tiles WHERE zoom_level <= \(maxZoom)"
        let result = try runProcess("sqlite3", ["-separator", " ", TestData.url("ne_raster_z0-5.mbtiles").path, sql])
        try #require(result.status == 0, "sqlite3: \(result.stderr)")
        var tiles: [TileID: Data] = [:]
        for line in result.stdout.split(separator: "\n") {
            let f = line.split(separator: " ")
            guard f.count == 4, let z = Int(f[0]), let x = Int(f[1]), let y = Int(f[2]) else { continue }
            var bytes = [UInt8]()
            var index = f[3].startIndex
            while index < f[3].endIndex {
                let next = f[3].index(index, offsetBy: 2)
                bytes.append(UInt8(f[3][index..<next], radix: 16) ?? 0)
                index = next
            }
            tiles[TileID(z: z, x: x, y: y)] = Data(bytes)
        }
        return tiles
    }

    private func allTiles(maxZoom: Int) -> [TileID] {
        var tiles: [TileID] = []
        TileCoverage(lonLatBoxes: [Envelope(minX: -180, minY: -85.05, maxX: 180, maxY: 85.05)], zooms: 0...maxZoom)
            .forEachTile { tiles.append($0) }
        return tiles
    }

    /// Quick retries; a low-speed window long enough that a loaded machine's slow server does
    /// not look stalled, except where a test stalls on purpose.
    private func quickConfiguration(lowSpeedTime: Int = 5) -> HTTPConfiguration {
        var configuration = HTTPConfiguration()
        configuration.concurrency = 4
        configuration.initialBackoff = 0.02
        configuration.maxBackoff = 0.1
        configuration.maxRetries = 2
        configuration.lowSpeedTime = lowSpeedTime
        return configuration
    }

    private func fetchAll(_ source: HTTPTileSource, _ tiles: [TileID]) throws -> [TileID: TileFetchResult] {
        var results: [TileID: TileFetchResult] = [:]
        try source.fetch(tiles) { tile, result in
            #expect(results[tile] == nil, "tile \(tile) reported twice")
            results[tile] = result
        }
        return results
    }

    @Test("XYZ ({y}) and TMS ({-y}) templates fetch the same tiles, equal to the file's")
    func xyzAndTMS() throws {
        let expected = try expectedTiles(maxZoom: 3)
        let server = try TestTileServer()
        let tiles = allTiles(maxZoom: 3)
        #expect(tiles.count == 85)
        let xyz = try fetchAll(HTTPTileSource(template: server.baseURL + "/{z}/{x}/{y}.png", configuration: quickConfiguration()), tiles)
        let tms = try fetchAll(HTTPTileSource(template: server.baseURL + "/tms/{z}/{x}/{-y}.png", configuration: quickConfiguration()), tiles)
        try server.stop()
        for tile in tiles {
            let data = try #require(expected[tile])
            #expect(xyz[tile] == .data(data), "tile \(tile)")
            #expect(tms[tile] == .data(data), "tile \(tile)")
        }
    }

    @Test("absent tiles are reported absent, tiles whose retries ran out failed, the rest arrive")
    func absentAndFailed() throws {
        let script = TileServerScript(rules: [.init(match: "^/2/(1/1|3/0)\\.png$", responses: Array(repeating: "500", count: 10))])
        let server = try TestTileServer(script: script)
        let source = try HTTPTileSource(template: server.baseURL + "/{z}/{x}/{y}.png?key=TOPSECRET",
                                        configuration: quickConfiguration())
        let tiles = allTiles(maxZoom: 2) + [TileID(z: 6, x: 1, y: 1), TileID(z: 7, x: 0, y: 127)]
        let results = try fetchAll(source, tiles)
        let stats = try server.stop()
        #expect(results.count == tiles.count)
        var absent = 0, failed = 0, data = 0
        for (tile, result) in results {
            switch result {
            case .absent: absent += 1
            case .failed(let message):
                failed += 1
                #expect(!message.contains("TOPSECRET"))
                #expect(message.contains("key=REDACTED"))
                #expect(message.contains("500"))
                #expect(stats.counts["/\(tile.z)/\(tile.x)/\(tile.y).png"] == 3)
            case .data: data += 1
            }
        }
        #expect(absent == 2)
        #expect(failed == 2)
        #expect(data == 19)
    }

    @Test("faults on the way (500, 429, stall, truncation) still give every tile, complete")
    func faultsRecovered() throws {
        let expected = try expectedTiles(maxZoom: 2)
        let script = TileServerScript(rules: [
            .init(match: "^/1/0/0\\.", responses: ["500"]),
            .init(match: "^/1/1/1\\.", responses: ["429:1"]),
            .init(match: "^/2/0/3\\.", responses: ["stall:20"]),
            .init(match: "^/2/2/2\\.", responses: ["truncate"]),
        ])
        let server = try TestTileServer(script: script)
        let source = try HTTPTileSource(template: server.baseURL + "/{z}/{x}/{y}.png",
                                        configuration: quickConfiguration(lowSpeedTime: 2))
        let tiles = allTiles(maxZoom: 2)
        let results = try fetchAll(source, tiles)
        let stats = try server.stop()
        for tile in tiles {
            #expect(results[tile] == .data(try #require(expected[tile])), "tile \(tile)")
        }
        #expect(stats.requests == tiles.count + 4)
    }

    @Test("the identity and metadata hold neither query string nor headers")
    func redactedIdentity() throws {
        var configuration = quickConfiguration()
        configuration.headers = [("Authorization", "Bearer HEADERSECRET")]
        let source = try HTTPTileSource(template: "https://user:pw@tiles.example.com/v1/{z}/{x}/{y}.pbf?access_token=QUERYSECRET",
                                        configuration: configuration)
        let metadata = try source.metadata()
        #expect(source.identity == "https://tiles.example.com/v1/{z}/{x}/{y}.pbf")
        #expect(metadata.format == "pbf")
        let everything = "\(source.identity) \(metadata)"
        for secret in ["QUERYSECRET", "HEADERSECRET", "pw@"] {
            #expect(!everything.contains(secret))
        }
    }

    @Test("a template without an extension takes its format from the Content-Type")
    func formatFromContentType() throws {
        let server = try TestTileServer()
        let source = try HTTPTileSource(template: server.baseURL + "/{z}/{x}/{y}", configuration: quickConfiguration())
        #expect(try source.metadata().format == "png")
        try server.stop()
    }

    @Test("bad templates are refused with the template (redacted) in the message", arguments: [
        "ftp://host/{z}/{x}/{y}.png?key=S", "https://host/{z}/{x}.png?key=S", "https://host/{x}/{y}.png?key=S", "host/{z}/{x}/{y}",
    ])
    func badTemplates(template: String) {
        do {
            _ = try HTTPTileSource(template: template)
            Issue.record("accepted \(template)")
        } catch {
            #expect(error.kind == .invalidInput)
            #expect(!error.message.contains("key=S"))
            #expect(error.message.contains("template"))
        }
    }

    @Test("the URL of a tile substitutes z, x and the row numbering the template asks for", arguments: [
        ("https://h/{z}/{x}/{y}.png", TileID(z: 3, x: 2, y: 1), "https://h/3/2/1.png"),
        ("https://h/{z}/{x}/{-y}.png", TileID(z: 3, x: 2, y: 1), "https://h/3/2/6.png"),
        ("https://h/t?l={z}&c={x}&r={y}&k={key}", TileID(z: 12, x: 654, y: 1583), "https://h/t?l=12&c=654&r=1583&k={key}"),
    ])
    func urlSubstitution(template: String, tile: TileID, url: String) throws {
        #expect(try TileURLTemplate(template).url(for: tile) == url)
    }

    @Test("the byte estimate is exact where every tile is sampled and close where a sample is")
    func estimate() throws {
        let expected = try expectedTiles(maxZoom: 4)
        let server = try TestTileServer()
        let source = try HTTPTileSource(template: server.baseURL + "/{z}/{x}/{y}.png", configuration: quickConfiguration())
        let world = [Envelope(minX: -180, minY: -85.05, maxX: 180, maxY: 85.05)]
        let small = try #require(try source.estimatedBytes(of: TileCoverage(lonLatBoxes: world, zooms: 0...1)))
        let exactSmall = expected.filter { $0.key.z <= 1 }.values.reduce(0) { $0 + $1.count }
        #expect(small == exactSmall)
        let large = try #require(try source.estimatedBytes(of: TileCoverage(lonLatBoxes: world, zooms: 0...4)))
        let exactLarge = expected.values.reduce(0) { $0 + $1.count }
        #expect(Double(large) > Double(exactLarge) * 0.5 && Double(large) < Double(exactLarge) * 1.5,
                "estimate \(large) against \(exactLarge)")
        let stats = try server.stop()
        #expect(stats.requests == 5 + (1 + 4 + 6 + 6 + 6))  // no more than the sample
    }

    @Test("cancellation stops fetching with CancellationError")
    func cancellation() throws {
        let server = try TestTileServer(script: TileServerScript(delay: 0.3))
        let flag = Flag()
        let source = try HTTPTileSource(template: server.baseURL + "/{z}/{x}/{y}.png", configuration: quickConfiguration(),
                                        isCancelled: { flag.isSet })
        var reported = 0
        #expect(throws: CancellationError.self) {
            try source.fetch(allTiles(maxZoom: 4)) { _, _ in
                reported += 1
                flag.set()
            }
        }
        #expect(reported == 1)
        try server.stop()
    }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
