import HTTP
import Testing

@Suite("HTTP credentials redaction, headers and settings")
struct HTTPConfigurationTests {
    @Test("credentials in query strings and userinfo are redacted", arguments: [
        ("https://tiles.example.com/{z}/{x}/{y}.png?key=abc", "https://tiles.example.com/{z}/{x}/{y}.png?key=REDACTED"),
        ("https://a.b/t.pbf?access_token=pk.eyJ1&style=dark", "https://a.b/t.pbf?access_token=REDACTED&style=dark"),
        ("https://a.b/t?format=png&token=xyz#frag", "https://a.b/t?format=png&token=REDACTED#frag"),
        ("https://a.b/t?apikey=1&APIKEY=2&api_key=3", "https://a.b/t?apikey=REDACTED&APIKEY=REDACTED&api_key=REDACTED"),
        ("https://a.b/t?client_secret=s&x-api-key=k&sig=z", "https://a.b/t?client_secret=REDACTED&x-api-key=REDACTED&sig=REDACTED"),
        ("https://user:pw@a.b/t?x=1", "https://a.b/t?x=1"),
        ("https://a.b/1/2/3.png", "https://a.b/1/2/3.png"),
        ("https://a.b/t?monkey=1&tokens=2&flag", "https://a.b/t?monkey=1&tokens=2&flag"),
    ])
    func redaction(url: String, redacted: String) {
        #expect(HTTPError.redactingCredentials(in: url) == redacted)
    }

    @Test("errors carry the redacted URL")
    func errorRedacts() {
        let error = HTTPError(.status(500), url: "https://a.b/0/0/0.png?key=SECRET", attempts: 6)
        #expect(error.url == "https://a.b/0/0/0.png?key=REDACTED")
        #expect(!error.description.contains("SECRET"))
        #expect(error.description == "HTTP status 500 after 6 attempts - https://a.b/0/0/0.png?key=REDACTED")
    }

    @Test("a source description keeps neither query string nor userinfo")
    func strippingQuery() {
        #expect(HTTPError.strippingQuery(from: "https://u:p@t.example/{z}/{x}/{y}.png?key=a#x") == "https://t.example/{z}/{x}/{y}.png")
    }

    @Test("header arguments are parsed and checked", arguments: [
        ("Authorization: Bearer x", "Authorization", "Bearer x"),
        ("X-A:b", "X-A", "b"),
        ("  Referer :  https://e.org/  ", "Referer", "https://e.org/"),
        ("X-Empty:", "X-Empty", ""),
    ])
    func parseHeader(text: String, name: String, value: String) throws {
        let header = try HTTPConfiguration.parseHeader(text)
        #expect(header.name == name)
        #expect(header.value == value)
    }

    @Test("malformed headers are refused with a clear error", arguments: ["no colon", ": value", "Bad Name: v", "X: a\r\nInjected: b"])
    func badHeader(text: String) {
        #expect(throws: HTTPError.self) { try HTTPConfiguration.parseHeader(text) }
    }

    @Test("unusable settings are refused before anything starts")
    func badSettings() {
        var configuration = HTTPConfiguration()
        configuration.concurrency = 0
        #expect(throws: HTTPError.self) { try HTTPClient(configuration: configuration) }
        configuration = HTTPConfiguration()
        configuration.requestsPerSecond = 0
        #expect(throws: HTTPError.self) { try HTTPClient(configuration: configuration) }
        configuration = HTTPConfiguration()
        configuration.requestsPerSecond = -Double.infinity
        #expect(throws: HTTPError.self) { try HTTPClient(configuration: configuration) }
    }

    @Test("the User-Agent is pkgbuild/<version>")
    func userAgent() {
        #expect(HTTPConfiguration.userAgent(version: "1.2.3") == "pkgbuild/1.2.3")
    }

    @Test("an unsupported scheme fails that request only")
    func unsupportedScheme() throws {
        let client = try HTTPClient()
        var responses: [HTTPResponse<Int>] = []
        try client.fetch([HTTPRequest(url: "ftp://example.invalid/x", tag: 1),
                          HTTPRequest(url: "", tag: 2)]) { responses.append($0) }
        #expect(responses.count == 2)
        #expect(responses.allSatisfy { $0.error != nil && $0.error?.isRetryable == false })
    }
}

@Suite("HTTP requests that cannot start")
struct HTTPUnstartableRequestTests {
    /// libcurl refuses strings over 8,000,000 bytes when the option is set (CURL_MAX_INPUT_LENGTH),
    /// so these fail before they take a slot; an empty URL fails later, inside the transfer.
    @Test("unusable URLs are read lazily too, never all at once", arguments: [true, false])
    func unusableURLsBounded(refusedBySetopt: Bool) throws {
        let url = refusedBySetopt ? String(repeating: "a", count: 8_000_001) : ""
        var configuration = HTTPConfiguration()
        configuration.concurrency = 2
        let client = try HTTPClient(configuration: configuration)
        var handedOut = 0
        let count = refusedBySetopt ? 8 : 50
        let requests = (0..<count).lazy.map { i -> HTTPRequest<Int> in
            handedOut += 1
            return HTTPRequest(url: url, tag: i)
        }
        let stream = try client.responses(for: requests)
        var received = 0
        var maxAhead = 0
        while let response = try stream.next() {
            let error = try #require(response.error)
            if refusedBySetopt {
                guard case .invalidInput = error.kind else {
                    Issue.record("expected the URL to be refused when set, got \(error.kind)")
                    break
                }
            }
            received += 1
            maxAhead = max(maxAhead, handedOut - received)
        }
        #expect(received == count)
        #expect(maxAhead <= 2)
    }
}
