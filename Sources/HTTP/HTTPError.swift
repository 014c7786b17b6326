/// The one error type of the HTTP module: what failed, for which URL (credentials redacted),
/// and after how many attempts.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The server answered with a status that is neither success nor "absent"
        /// (and, for 5xx and 429, kept doing so until the retries ran out).
        case status(Int)
        /// libcurl failed the transfer: its error code and message (timeouts, refused
        /// connections, a body shorter than its Content-Length, ...).
        case transfer(code: Int, message: String)
        /// The body grew beyond the configured limit.
        case bodyTooLarge(limit: Int)
        /// The caller's input is unusable (an empty URL, a malformed header, a bad option).
        case invalidInput(String)
        /// libcurl could not be set up (out of memory, a failed option).
        case setup(String)
        /// The caller asked to stop.
        case cancelled
    }

    public var kind: Kind
    /// The request's URL with credentials in its query string redacted (see `redactingCredentials`).
    public var url: String
    /// How many times the request was sent (0 when it never was).
    public var attempts: Int

    public init(_ kind: Kind, url: String, attempts: Int = 0) {
        self.kind = kind
        self.url = HTTPError.redactingCredentials(in: url)
        self.attempts = attempts
    }

    /// True when trying again later might succeed (5xx, 429, timeouts, dropped connections).
    public var isRetryable: Bool {
        switch kind {
        case .status(let code): return code == 429 || (500...599).contains(code)
        case .transfer(let code, _): return CurlErrorClass.isRetryable(code)
        case .bodyTooLarge, .invalidInput, .setup, .cancelled: return false
        }
    }

    public var description: String {
        let attemptsNote = attempts > 1 ? " after \(attempts) attempts" : ""
        let target = url.isEmpty ? "" : " - \(url)"
        switch kind {
        case .status(let code):
            return "HTTP status \(code)\(attemptsNote)\(target)"
        case .transfer(let code, let message):
            return "HTTP transfer failed (curl error \(code): \(message))\(attemptsNote)\(target)"
        case .bodyTooLarge(let limit):
            return "HTTP response body larger than \(limit) bytes\(target)"
        case .invalidInput(let message):
            return "invalid HTTP request: \(message)\(target)"
        case .setup(let message):
            return "HTTP client setup failed: \(message)\(target)"
        case .cancelled:
            return "HTTP transfers cancelled"
        }
    }
}
