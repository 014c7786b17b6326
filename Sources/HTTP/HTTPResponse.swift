import Foundation

/// The final outcome of one request, after any retries.
public struct HTTPResponse<Tag: Sendable>: Sendable {
    /// What the request ended as.
    public enum Outcome: Sendable {
        /// A 2xx answer with a body (possibly empty for statuses other than 204).
        case body(Data)
        /// 404 or 204: the resource does not exist. Not an error and never retried.
        case absent
        /// Retries ran out, or the failure was not one that retrying can fix.
        case failed(HTTPError)
    }

    public var request: HTTPRequest<Tag>
    public var outcome: Outcome
    /// The last HTTP status received (0 when no answer arrived).
    public var status: Int
    /// The last answer's headers, names lowercased (`content-type`, `retry-after`, ...),
    /// parsed only when read.
    public var headers: [String: String] { headerLines.dictionary }
    private let headerLines: HTTPHeaderLines
    /// How many times the request was sent.
    public var attempts: Int

    init(request: HTTPRequest<Tag>, outcome: Outcome, status: Int, headerLines: HTTPHeaderLines, attempts: Int) {
        self.request = request
        self.outcome = outcome
        self.status = status
        self.headerLines = headerLines
        self.attempts = attempts
    }

    public var tag: Tag { request.tag }

    /// The body when the request succeeded with one.
    public var body: Data? {
        if case .body(let data) = outcome { return data }
        return nil
    }

    /// The error when the request failed.
    public var error: HTTPError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }

    public var isAbsent: Bool {
        if case .absent = outcome { return true }
        return false
    }

    /// The `Content-Type` header, when the server sent one.
    public var contentType: String? { headers["content-type"] }
}
