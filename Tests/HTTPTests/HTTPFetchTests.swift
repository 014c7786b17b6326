import Foundation
import HTTP
import TestSupport
import Testing

@Suite("HTTP fetching against a real local server")
struct HTTPFetchTests {
    @Test("every tile arrives with the bytes sqlite3 reads from the MBTiles")
    func fetchesTiles() throws {
        let expected = try tilesFromSQLite(maxZoom: 3)
        let server = try TestTileServer()
        let keys = tileKeys(maxZoom: 3)
        let responses = try fetchAll(requests(keys, on: server), quickConfiguration())
        try server.stop()
        #expect(responses.count == keys.count)
        #expect(expected.count == 85)
        for key in keys {
            let response = try #require(responses[key])
            #expect(response.status == 200)
            #expect(response.attempts == 1)
            #expect(response.body == expected[key], "tile \(key)")
            #expect(response.contentType == "image/png")
        }
    }

    @Test("the User-Agent and the extra headers are sent with every request")
    func sendsHeaders() throws {
        let server = try TestTileServer()
        var configuration = quickConfiguration()
        configuration.headers = [try HTTPConfiguration.parseHeader("Authorization: Bearer s3cret"),
                                 try HTTPConfiguration.parseHeader("X-Client :  field-app ")]
        _ = try fetchAll(requests(tileKeys(maxZoom: 1), on: server), configuration)
        let stats = try server.stop()
        #expect(stats.log.count == 5)
        for request in stats.log {
            #expect(request.headers["user-agent"] == "pkgbuild/9.8.7")
            #expect(request.headers["authorization"] == "Bearer s3cret")
            #expect(request.headers["x-client"] == "field-app")
        }
    }

    @Test("404 and 204 are absent, neither failed nor retried")
    func absentTiles() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [.init(match: "^/2/1/1\\.", responses: ["204"])]))
        let keys = ["0/0/0", "9/0/0", "2/1/1", "6/0/0"]  // zooms 6 and 9 are not in the file
        let responses = try fetchAll(requests(keys, on: server), quickConfiguration())
        let stats = try server.stop()
        #expect(responses["0/0/0"]?.body != nil)
        for key in ["9/0/0", "6/0/0", "2/1/1"] {
            let response = try #require(responses[key])
            #expect(response.isAbsent, "tile \(key)")
            #expect(response.attempts == 1)
            #expect(stats.counts["/\(key).png"] == 1)
        }
        #expect(responses["2/1/1"]?.status == 204)
        #expect(responses["9/0/0"]?.status == 404)
    }

    @Test("never more connections or requests at once than the concurrency", arguments: [1, 3, 8])
    func concurrencyBound(concurrency: Int) throws {
        let server = try TestTileServer(script: TileServerScript(delay: 0.03))
        let keys = Array(tileKeys(maxZoom: 3).prefix(48))
        let responses = try fetchAll(requests(keys, on: server), quickConfiguration(concurrency: concurrency))
        let stats = try server.stop()
        #expect(responses.values.allSatisfy { $0.body != nil })
        #expect(stats.max_connections <= concurrency)
        #expect(stats.max_inflight <= concurrency)
        // With every answer delayed the slots fill up: the bound is reached, not just respected.
        #expect(stats.max_inflight >= min(concurrency, 2))
    }

    @Test("connections are kept alive and reused between requests")
    func keepAlive() throws {
        let server = try TestTileServer()
        let keys = tileKeys(maxZoom: 4)  // 341 requests
        let client = try HTTPClient(configuration: quickConfiguration(concurrency: 4))
        var count = 0
        try client.fetch(requests(Array(keys.prefix(200)), on: server)) { _ in count += 1 }
        // A second batch on the same client reuses the same connections.
        try client.fetch(requests(Array(keys.dropFirst(200)), on: server)) { _ in count += 1 }
        let stats = try server.stop()
        #expect(count == keys.count)
        #expect(stats.requests == keys.count)
        #expect(stats.connections_opened <= 4)
    }

    @Test("the request rate limit spaces requests out", .timeLimit(.minutes(1)))
    func rateLimit() throws {
        let server = try TestTileServer()
        var configuration = quickConfiguration(concurrency: 8)
        configuration.requestsPerSecond = 20
        let start = Date()
        let responses = try fetchAll(requests(Array(tileKeys(maxZoom: 3).prefix(41)), on: server), configuration)
        let elapsed = seconds(since: start)
        let stats = try server.stop()
        #expect(responses.count == 41)
        #expect(elapsed >= 40.0 / 20 * 0.95)
        // No window of one second holds more than 20 request starts (with scheduling slack).
        let times = stats.log.map(\.t).sorted()
        for i in 0..<(times.count - 20) {
            #expect(times[i + 20] - times[i] >= 0.9, "requests \(i)...\(i + 20)")
        }
    }

    @Test("the request sequence is read lazily, as slots free up")
    func lazyRequests() throws {
        let server = try TestTileServer(script: TileServerScript(delay: 0.02))
        let keys = tileKeys(maxZoom: 3)
        var handedOut = 0
        var maxAhead = 0
        var received = 0
        let lazy = keys.lazy.map { key -> HTTPRequest<String> in
            handedOut += 1
            return HTTPRequest(url: "\(server.baseURL)/\(key).png", tag: key)
        }
        let client = try HTTPClient(configuration: quickConfiguration(concurrency: 3))
        let stream = try client.responses(for: lazy)
        while try stream.next() != nil {
            received += 1
            maxAhead = max(maxAhead, handedOut - received)
        }
        try server.stop()
        #expect(received == keys.count)
        // In flight (3) plus finished but not yet taken (at most 3).
        #expect(maxAhead <= 6)
    }

    @Test("cancellation stops the transfers promptly and throws .cancelled")
    func cancellation() throws {
        let server = try TestTileServer(script: TileServerScript(delay: 0.5))
        let cancel = CancelFlag()
        let client = try HTTPClient(configuration: quickConfiguration(concurrency: 2))
        let start = Date()
        var received = 0
        #expect(throws: HTTPError(.cancelled, url: "")) {
            try client.fetch(requests(tileKeys(maxZoom: 4), on: server), isCancelled: { cancel.isSet }) { _ in
                received += 1
                if received == 2 { cancel.set() }
            }
        }
        #expect(seconds(since: start) < 5)
        #expect(received == 2)
        // The client is usable again after a cancelled stream.
        let again = try client.responses(for: requests(["0/0/0"], on: server))
        #expect(try again.next()?.body != nil)
        try server.stop()
    }
}

/// A flag another thread (a signal handler, in the command line) may set.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
