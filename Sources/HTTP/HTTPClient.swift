/// Fetches URLs over HTTP(S) with libcurl's multi interface: bounded concurrency, optional
/// pacing, retries with backoff, timeouts. Its connections and handles are kept between
/// requests and between calls, so keep one client for a whole run.
///
/// Two ways to consume the answers, both pulling so that memory holds only the bodies in
/// flight plus the ones the caller has not yet taken:
/// ```
/// let client = try HTTPClient(configuration: config)
/// try client.fetch(requests) { response in ... }        // a closure per response
/// let stream = try client.responses(for: requests)       // or pull them one by one
/// while let response = try stream.next() { ... }
/// ```
/// - Important: not thread-safe. The thread that calls `fetch` or `next()` does the network
///   work; only the `isCancelled` closure may look at state other threads change.
public final class HTTPClient {
    public let configuration: HTTPConfiguration
    let multi: CurlMulti
    private var idleHandles: [CurlEasy] = []
    /// True while a stream is open: streams share the multi handle, so one at a time.
    var hasOpenStream = false

    /// - Throws: `HTTPError` with `.invalidInput` for unusable settings, `.setup` when libcurl
    ///   cannot be initialised.
    public init(configuration: HTTPConfiguration = HTTPConfiguration()) throws(HTTPError) {
        try configuration.validate()
        self.configuration = configuration
        self.multi = try CurlMulti(maxConnections: configuration.concurrency)
    }

    /// Starts fetching `requests` lazily: the sequence is read only as slots free up.
    /// - Parameter isCancelled: polled at least every 100 ms; once it returns true, transfers
    ///   stop and `next()` throws `.cancelled`.
    /// - Throws: `.setup` when another stream of this client is still open.
    public func responses<Requests: Sequence, Tag>(
        for requests: Requests, isCancelled: @escaping () -> Bool = { false }
    ) throws(HTTPError) -> HTTPResponseStream<Tag> where Requests.Element == HTTPRequest<Tag> {
        guard !hasOpenStream else {
            throw HTTPError(.setup("another response stream of this client is still open"), url: "")
        }
        return HTTPResponseStream(client: self, requests: AnyIterator(requests.makeIterator()), isCancelled: isCancelled)
    }

    /// Fetches `requests` and calls `handle` with each final response, in completion order,
    /// on the calling thread. Failed requests are handed to `handle` too (`.failed`); the
    /// call itself throws only for cancellation, libcurl failures, or what `handle` throws.
    public func fetch<Requests: Sequence, Tag>(
        _ requests: Requests, isCancelled: @escaping () -> Bool = { false },
        _ handle: (HTTPResponse<Tag>) throws -> Void
    ) throws where Requests.Element == HTTPRequest<Tag> {
        let stream = try responses(for: requests, isCancelled: isCancelled)
        while let response = try stream.next() {
            try handle(response)
        }
    }

    func checkOutHandle() throws(HTTPError) -> CurlEasy {
        if let easy = idleHandles.popLast() { return easy }
        return try CurlEasy(configuration: configuration)
    }

    func checkIn(_ easy: CurlEasy) {
        idleHandles.append(easy)
    }
}
