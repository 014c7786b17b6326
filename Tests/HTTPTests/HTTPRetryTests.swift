import Foundation
import HTTP
import TestSupport
import Testing

@Suite("HTTP retries against scripted server faults")
struct HTTPRetryTests {
    private func rule(_ key: String, _ responses: [String]) -> TileServerScript.Rule {
        .init(match: "^/\(NSRegularExpression.escapedPattern(for: key))\\.png$", responses: responses)
    }

    @Test("500 then success: retried, and the tile arrives complete")
    func serverErrorThenSuccess() throws {
        let expected = try tilesFromSQLite(maxZoom: 1)
        let server = try TestTileServer(script: TileServerScript(rules: [rule("1/0/1", ["500", "503"])]))
        let responses = try fetchAll(requests(tileKeys(maxZoom: 1), on: server), quickConfiguration())
        let stats = try server.stop()
        let response = try #require(responses["1/0/1"])
        #expect(response.body == expected["1/0/1"])
        #expect(response.attempts == 3)
        #expect(stats.counts["/1/0/1.png"] == 3)
        #expect(responses.values.allSatisfy { $0.body != nil })
    }

    @Test("429 with Retry-After in seconds: the wait is the server's, not the backoff's")
    func retryAfterSeconds() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [rule("0/0/0", ["429:2"])]))
        let start = Date()
        let responses = try fetchAll(requests(["0/0/0"], on: server), quickConfiguration())
        let elapsed = seconds(since: start)
        let stats = try server.stop()
        #expect(responses["0/0/0"]?.body != nil)
        #expect(responses["0/0/0"]?.attempts == 2)
        #expect(elapsed >= 1.9)  // the quick configuration's own backoff is 0.02 s
        #expect(elapsed < 10)
        let times = stats.log.map(\.t)
        #expect(times.count == 2)
        #expect(times[1] - times[0] >= 1.9)
    }

    @Test("429 with Retry-After as an HTTP date")
    func retryAfterDate() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [rule("0/0/0", ["429-date:3"])]))
        let responses = try fetchAll(requests(["0/0/0"], on: server), quickConfiguration())
        let stats = try server.stop()
        #expect(responses["0/0/0"]?.body != nil)
        let times = stats.log.map(\.t)
        #expect(times.count == 2)
        // The date has one-second resolution: 3 s ahead is at least 2 s once truncated.
        #expect(times[1] - times[0] >= 1.9)
        #expect(times[1] - times[0] < 10)
    }

    @Test("Retry-After longer than the configured cap waits only the cap")
    func retryAfterCapped() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [rule("0/0/0", ["429:3600"])]))
        var configuration = quickConfiguration()
        configuration.maxRetryAfter = 0.5
        let start = Date()
        let responses = try fetchAll(requests(["0/0/0"], on: server), configuration)
        try server.stop()
        #expect(responses["0/0/0"]?.body != nil)
        #expect(seconds(since: start) < 10)
    }

    @Test("a stalled connection is abandoned by the low-speed limit and retried", .timeLimit(.minutes(1)))
    func stalledConnection() throws {
        let expected = try tilesFromSQLite(maxZoom: 1)
        let server = try TestTileServer(script: TileServerScript(rules: [rule("1/1/1", ["stall:20"])]))
        var configuration = quickConfiguration()
        configuration.lowSpeedTime = 1
        let start = Date()
        let responses = try fetchAll(requests(tileKeys(maxZoom: 1), on: server), configuration)
        let elapsed = seconds(since: start)
        let stats = try server.stop()
        let response = try #require(responses["1/1/1"])
        #expect(response.body == expected["1/1/1"])
        #expect(response.attempts == 2)
        #expect(stats.counts["/1/1/1.png"] == 2)
        #expect(elapsed >= 0.9)  // the low-speed window is 1 s
        #expect(elapsed < 15)    // far less than the 20 s stall
    }

    @Test("a stalled connection with no retries left fails with curl's timeout")
    func stalledWithoutRetries() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [rule("0/0/0", ["stall:20"])]))
        var configuration = quickConfiguration()
        configuration.maxRetries = 0
        configuration.lowSpeedTime = 1
        let responses = try fetchAll(requests(["0/0/0"], on: server), configuration)
        try server.stop()
        let error = try #require(responses["0/0/0"]?.error)
        guard case .transfer(let code, _) = error.kind else {
            Issue.record("expected a transfer error, got \(error)")
            return
        }
        #expect(code == 28)  // CURLE_OPERATION_TIMEDOUT
    }

    @Test("a truncated body (shorter than its Content-Length) is retried, never delivered")
    func truncatedBody() throws {
        let expected = try tilesFromSQLite(maxZoom: 2)
        let server = try TestTileServer(script: TileServerScript(rules: [rule("2/3/0", ["truncate", "truncate"])]))
        let responses = try fetchAll(requests(tileKeys(maxZoom: 2), on: server), quickConfiguration())
        try server.stop()
        let response = try #require(responses["2/3/0"])
        #expect(response.body == expected["2/3/0"])
        #expect(response.attempts == 3)
        for (key, response) in responses {
            #expect(response.body == expected[key], "tile \(key)")
        }
    }

    @Test("a truncated body with no retries left is curl error 18")
    func truncatedWithoutRetries() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [rule("0/0/0", ["truncate"])]))
        var configuration = quickConfiguration()
        configuration.maxRetries = 0
        let responses = try fetchAll(requests(["0/0/0"], on: server), configuration)
        try server.stop()
        let error = try #require(responses["0/0/0"]?.error)
        #expect(error.kind == .transfer(code: 18, message: error.kindMessage))
        #expect(error.isRetryable)
    }

    @Test("retries run out: the requests fail, each tried 1 + maxRetries times, the rest succeed")
    func retriesRunOut() throws {
        let failing = ["1/0/0", "2/2/2", "2/3/1"]
        let alwaysFailing = failing.map { rule($0, Array(repeating: "502", count: 20)) }
        let server = try TestTileServer(script: TileServerScript(rules: alwaysFailing))
        var configuration = quickConfiguration()
        configuration.maxRetries = 2
        let keys = tileKeys(maxZoom: 2)
        let responses = try fetchAll(requests(keys, on: server, query: "?access_token=abc123"), configuration)
        let stats = try server.stop()
        let failed = responses.values.filter { $0.error != nil }
        #expect(Set(failed.map(\.tag)) == Set(failing))
        #expect(responses.count - failed.count == keys.count - failing.count)
        for response in failed {
            #expect(response.attempts == 3)
            #expect(stats.counts["/\(response.tag).png"] == 3)
            let error = try #require(response.error)
            #expect(error.kind == .status(502))
            #expect(!error.description.contains("abc123"))
            #expect(error.description.contains("access_token=REDACTED"))
            #expect(error.description.contains("after 3 attempts"))
        }
    }

    @Test("statuses that retrying cannot fix (403) fail at once")
    func forbiddenNotRetried() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [rule("0/0/0", ["403"])]))
        let responses = try fetchAll(requests(["0/0/0"], on: server), quickConfiguration())
        let stats = try server.stop()
        #expect(responses["0/0/0"]?.error?.kind == .status(403))
        #expect(responses["0/0/0"]?.attempts == 1)
        #expect(stats.counts["/0/0/0.png"] == 1)
    }

    @Test("a refused connection is retried, then reported with curl's code")
    func connectionRefused() throws {
        let server = try TestTileServer()
        let port = server.port
        try server.stop()  // nothing listens on the port any more
        var configuration = quickConfiguration()
        configuration.maxRetries = 2
        let responses = try fetchAll([HTTPRequest(url: "http://127.0.0.1:\(port)/0/0/0.png", tag: "0/0/0")], configuration)
        let response = try #require(responses["0/0/0"])
        #expect(response.attempts == 3)
        guard case .transfer(let code, _)? = response.error?.kind else {
            Issue.record("expected a transfer error, got \(String(describing: response.error))")
            return
        }
        #expect(code == 7)  // CURLE_COULDNT_CONNECT
    }

    @Test("a body over the size limit fails without retrying")
    func bodyTooLarge() throws {
        let server = try TestTileServer()
        var configuration = quickConfiguration()
        configuration.maxBodyBytes = 1000
        let responses = try fetchAll(requests(["0/0/0"], on: server), configuration)
        let stats = try server.stop()
        #expect(responses["0/0/0"]?.error?.kind == .bodyTooLarge(limit: 1000))
        #expect(stats.counts["/0/0/0.png"] == 1)
    }
}

extension HTTPError {
    /// The message of a transfer error, so tests can compare kinds on the code alone.
    var kindMessage: String {
        if case .transfer(_, let message) = kind { return message }
        return ""
    }
}
