import CCurl

/// The responses to a sequence of requests, pulled one at a time with `next()`.
///
/// At most `concurrency` requests are in progress at once (transferring, or waiting for a
/// retry); the request sequence is read only as slots free up, and finished responses wait
/// for the caller (at most `concurrency` of them), so memory stays bounded by twice the
/// concurrency whatever the number of requests.
/// Dropping the stream stops its transfers.
/// - Important: not thread-safe; pull from one thread.
public final class HTTPResponseStream<Tag: Sendable> {
    /// A request on its way: how often it was sent and what its last answer was.
    private struct Pending {
        var request: HTTPRequest<Tag>
        var attempts = 0
        /// When a retry may start (monotonic seconds).
        var due = 0.0
    }

    private let client: HTTPClient
    private let configuration: HTTPConfiguration
    private var requests: AnyIterator<HTTPRequest<Tag>>?
    private let isCancelled: () -> Bool
    private var inFlight: [UnsafeMutableRawPointer: (easy: CurlEasy, pending: Pending)] = [:]
    private var waitingForRetry: [Pending] = []
    private var ready: [HTTPResponse<Tag>] = []
    private var readyHead = 0
    private var nextStartAllowed = 0.0
    private var wasCancelled = false

    /// The longest `next()` sleeps before it looks at `isCancelled` again, seconds.
    private static var cancellationPollInterval: Double { 0.1 }

    init(client: HTTPClient, requests: AnyIterator<HTTPRequest<Tag>>, isCancelled: @escaping () -> Bool) {
        self.client = client
        self.configuration = client.configuration
        self.requests = requests
        self.isCancelled = isCancelled
        client.hasOpenStream = true
    }

    deinit {
        stopTransfers()
        client.hasOpenStream = false
    }

    /// The next finished response, waiting for one if needed; nil when every request has been
    /// answered.
    /// - Throws: `.cancelled` once `isCancelled` returned true; `.setup` when libcurl fails.
    public func next() throws(HTTPError) -> HTTPResponse<Tag>? {
        while true {
            if wasCancelled { throw HTTPError(.cancelled, url: "") }
            // Before handing over finished responses too: a caller that cancelled wants none.
            if isCancelled() {
                wasCancelled = true
                stopTransfers()
                throw HTTPError(.cancelled, url: "")
            }
            // Refill free slots first, so the network keeps working while the caller handles
            // responses that finished together.
            try startTransfers()
            if let response = popReady() { return response }
            if inFlight.isEmpty && waitingForRetry.isEmpty && requests == nil { return nil }

            try client.multi.perform()
            for (easy, result) in client.multi.completed() {
                finish(easy, result: result)
            }
            if readyHead < ready.count { continue }
            try client.multi.poll(timeout: sleepLimit())
        }
    }

    // MARK: - Starting

    private var slotsInUse: Int { inFlight.count + waitingForRetry.count }

    private func startTransfers() throws(HTTPError) {
        // Retries whose wait is over go first; they already hold a slot.
        while let index = indexOfDueRetry(), mayStartNow() {
            let pending = waitingForRetry.remove(at: index)
            try start(pending)
        }
        // Requests that fail before starting (an unusable URL) do not take a slot: the count
        // of responses waiting for the caller bounds them instead.
        while slotsInUse < configuration.concurrency, ready.count - readyHead < configuration.concurrency,
              requests != nil, mayStartNow() {
            guard let request = requests?.next() else {
                requests = nil
                break
            }
            try start(Pending(request: request))
        }
    }

    private func indexOfDueRetry() -> Int? {
        guard !waitingForRetry.isEmpty else { return nil }
        let now = monotonicSeconds()
        var best: Int?
        for (index, pending) in waitingForRetry.enumerated() where pending.due <= now {
            if best.map({ pending.due < waitingForRetry[$0].due }) ?? true { best = index }
        }
        return best
    }

    /// True when the rate limit allows a request to start now.
    private func mayStartNow() -> Bool {
        guard configuration.requestsPerSecond != nil else { return true }
        return monotonicSeconds() >= nextStartAllowed
    }

    private func start(_ pendingRequest: Pending) throws(HTTPError) {
        var pending = pendingRequest
        if let rate = configuration.requestsPerSecond {
            nextStartAllowed = max(nextStartAllowed, monotonicSeconds()) + 1 / rate
        }
        let easy = try client.checkOutHandle()
        do {
            try easy.prepare(url: pending.request.url)
        } catch {
            client.checkIn(easy)
            deliver(pending, outcome: .failed(error), status: 0, headers: HTTPHeaderLines())
            return
        }
        pending.attempts += 1
        try client.multi.add(easy)
        inFlight[easy.handle] = (easy, pending)
    }

    /// How long the loop may wait for sockets before it must start something or check
    /// cancellation again.
    private func sleepLimit() -> Double {
        let now = monotonicSeconds()
        var limit = Self.cancellationPollInterval
        if let due = waitingForRetry.map(\.due).min() { limit = min(limit, due - now) }
        if configuration.requestsPerSecond != nil, requests != nil, slotsInUse < configuration.concurrency {
            limit = min(limit, nextStartAllowed - now)
        }
        return max(limit, 0)
    }

    // MARK: - Finishing

    private func finish(_ easy: CurlEasy, result: CURLcode) {
        client.multi.remove(easy)
        guard let (_, pending) = inFlight.removeValue(forKey: easy.handle) else { return }
        defer { client.checkIn(easy) }
        let status = easy.responseCode
        let headers = easy.responseHeaderLines
        let url = pending.request.url

        let error: HTTPError
        if result == CURLE_OK {
            switch status {
            case 204, 404:
                _ = easy.takeBody()
                deliver(pending, outcome: .absent, status: status, headers: headers)
                return
            case 200...299:
                deliver(pending, outcome: .body(easy.takeBody()), status: status, headers: headers)
                return
            default:
                error = HTTPError(.status(status), url: url, attempts: pending.attempts)
            }
        } else if easy.bodyTooLarge || result == CURLE_FILESIZE_EXCEEDED {
            error = HTTPError(.bodyTooLarge(limit: configuration.maxBodyBytes), url: url, attempts: pending.attempts)
        } else {
            error = HTTPError(.transfer(code: Int(result.rawValue), message: easy.errorMessage(for: result)),
                              url: url, attempts: pending.attempts)
        }
        let retryAfter = easy.retryAfterSeconds
        _ = easy.takeBody()  // an error page or a partial body: not kept

        guard error.isRetryable, pending.attempts <= configuration.maxRetries else {
            deliver(pending, outcome: .failed(error), status: status, headers: headers)
            return
        }
        var retry = pending
        retry.due = monotonicSeconds() + retryDelay(after: pending.attempts, retryAfter: retryAfter)
        waitingForRetry.append(retry)
    }

    /// The server's `Retry-After` when it gave one (capped), else exponential backoff with jitter:
    /// `initialBackoff * 2^(attempt-1)`, capped, then a random point in its upper half so that
    /// many clients failing together do not come back together.
    private func retryDelay(after attempts: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return min(retryAfter, configuration.maxRetryAfter) }
        let exponent = Double(min(attempts - 1, 30))
        let ceiling = min(configuration.initialBackoff * Double.pow2(exponent), configuration.maxBackoff)
        return Double.random(in: (ceiling / 2)...max(ceiling, ceiling / 2))
    }

    private func deliver(_ pending: Pending, outcome: HTTPResponse<Tag>.Outcome, status: Int, headers: HTTPHeaderLines) {
        ready.append(HTTPResponse(request: pending.request, outcome: outcome, status: status,
                                  headerLines: headers, attempts: pending.attempts))
    }

    private func popReady() -> HTTPResponse<Tag>? {
        guard readyHead < ready.count else { return nil }
        let response = ready[readyHead]
        readyHead += 1
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
        }
        return response
    }

    /// Abandons every transfer and retry; the handles go back to the client for reuse.
    private func stopTransfers() {
        for (easy, _) in inFlight.values {
            client.multi.remove(easy)
            _ = easy.takeBody()
            client.checkIn(easy)
        }
        inFlight.removeAll()
        waitingForRetry.removeAll()
        requests = nil
        ready.removeAll()
        readyHead = 0
    }
}

extension Double {
    fileprivate static func pow2(_ exponent: Double) -> Double {
        Double(sign: .plus, exponent: Int(exponent), significand: 1)
    }
}
