/// How an `HTTPClient` fetches: concurrency, pacing, retries, timeouts and what it sends.
public struct HTTPConfiguration: Sendable {
    /// Requests in progress at once, including those waiting to be retried. At least 1.
    public var concurrency: Int = 8
    /// At most this many requests (retries included) start per second; nil for no limit.
    public var requestsPerSecond: Double? = nil
    /// How many times a retryable failure (5xx, 429, timeout, dropped connection, truncated
    /// body) is tried again before the request is reported failed.
    public var maxRetries: Int = 5
    /// The first retry waits about this long (seconds); each further retry doubles it,
    /// with random jitter, up to `maxBackoff`.
    public var initialBackoff: Double = 0.5
    /// The longest wait between two attempts, seconds.
    public var maxBackoff: Double = 30
    /// The longest `Retry-After` honoured, seconds; longer requests wait this long.
    public var maxRetryAfter: Double = 120
    /// Seconds allowed to establish a connection.
    public var connectTimeout: Double = 15
    /// A transfer slower than `lowSpeedLimit` bytes/s for `lowSpeedTime` seconds is abandoned
    /// (and retried): a stalled connection does not hang the run.
    public var lowSpeedLimit: Int = 1
    /// Whole seconds, at least 1.
    public var lowSpeedTime: Int = 30
    /// An upper bound on one whole attempt, seconds; nil for none (the low-speed limit still applies).
    public var transferTimeout: Double? = 300
    /// Bodies larger than this fail (not retried): memory stays bounded whatever the server sends.
    public var maxBodyBytes: Int = 64 << 20
    /// Sent as `User-Agent`.
    public var userAgent: String = HTTPConfiguration.userAgent(version: nil)
    /// Extra request headers, sent with every request (e.g. `Authorization`, `Referer`).
    public var headers: [(name: String, value: String)] = []
    /// Follow redirects (at most 5).
    public var followRedirects: Bool = true

    public init() {}

    /// `pkgbuild/<version>`, the User-Agent pkgbuild identifies itself with.
    public static func userAgent(version: String?) -> String {
        guard let version, !version.isEmpty else { return "pkgbuild" }
        return "pkgbuild/\(version)"
    }

    /// Parses a `Name: value` header as given on a command line (`--header 'K: V'`).
    /// - Throws: `HTTPError.Kind.invalidInput` when there is no colon, the name is empty or
    ///   holds characters a header name cannot, or the value holds a line break.
    public static func parseHeader(_ text: String) throws(HTTPError) -> (name: String, value: String) {
        guard let colon = text.firstIndex(of: ":") else {
            throw HTTPError(.invalidInput("header '\(text)' is not 'Name: value'"), url: "")
        }
        let name = String(text[..<colon]).trimmingSpaces()
        let value = String(text[text.index(after: colon)...]).trimmingSpaces()
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.allSatisfy({ tokenCharacters.contains($0) }) else {
            throw HTTPError(.invalidInput("header name '\(name)' is empty or not a valid token"), url: "")
        }
        // Scalars, not Characters: "\r\n" is one Character and would slip past a Character test.
        guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw HTTPError(.invalidInput("header '\(name)' has a line break in its value"), url: "")
        }
        return (name, value)
    }

    /// Checks the numbers a caller may have taken from a command line.
    func validate() throws(HTTPError) {
        func bad(_ message: String) -> HTTPError { HTTPError(.invalidInput(message), url: "") }
        guard concurrency >= 1 else { throw bad("concurrency must be at least 1, got \(concurrency)") }
        if let rate = requestsPerSecond, !(rate > 0 && rate.isFinite) {
            throw bad("request rate must be a positive number of requests per second, got \(rate)")
        }
        guard maxRetries >= 0 else { throw bad("retries must be 0 or more, got \(maxRetries)") }
        guard initialBackoff >= 0, maxBackoff >= 0, maxRetryAfter >= 0 else { throw bad("backoff times must not be negative") }
        guard connectTimeout > 0 else { throw bad("connect timeout must be positive") }
        guard lowSpeedTime >= 1, lowSpeedLimit >= 0 else { throw bad("low-speed time must be at least 1 second") }
        if let transferTimeout, !(transferTimeout > 0) { throw bad("transfer timeout must be positive") }
        guard maxBodyBytes > 0 else { throw bad("body size limit must be positive") }
        for header in headers {
            _ = try HTTPConfiguration.parseHeader("\(header.name): \(header.value)")
        }
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
