import CCurl
import Foundation

/// One libcurl easy handle, reused from request to request so its connection (kept alive in
/// the multi handle's pool) and DNS cache entries serve the next request too.
///
/// The body and header callbacks reach this object through libcurl's userdata pointer; the
/// owning `CurlMulti` keeps the object alive while the handle is in use.
/// - Important: not thread-safe; used by one `HTTPClient` on the thread that drives it.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    /// The request headers list; freed with the handle because the handle points at it.
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let maxBodyBytes: Int
    /// libcurl writes its detailed message for a failed transfer here (CURLOPT_ERRORBUFFER).
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// The body received so far for the current attempt.
    private(set) var body = Data()
    /// Headers of the latest response (a redirect's headers are dropped when the next status line arrives).
    private(set) var responseHeaderLines = HTTPHeaderLines()
    /// Set when the body outgrew `maxBodyBytes` and the write callback stopped the transfer.
    private(set) var bodyTooLarge = false

    init(configuration: HTTPConfiguration) throws(HTTPError) {
        guard let handle = curl_easy_init() else {  // NULL when out of memory
            throw HTTPError(.setup("curl_easy_init returned NULL"), url: "")
        }
        self.handle = handle
        self.maxBodyBytes = configuration.maxBodyBytes
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try configure(configuration)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)  // after the handle, which pointed at it
        errorBuffer.deallocate()  // ours, not libcurl's
    }

    private func configure(_ c: HTTPConfiguration) throws(HTTPError) {
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        try set(CURLOPT_NOSIGNAL, 1)  // no SIGALRM for DNS timeouts: we run on any thread
        try set(CURLOPT_FOLLOWLOCATION, c.followRedirects ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, 5)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        try set(CURLOPT_CONNECTTIMEOUT_MS, Int(c.connectTimeout * 1000))
        try set(CURLOPT_LOW_SPEED_LIMIT, c.lowSpeedLimit)
        try set(CURLOPT_LOW_SPEED_TIME, c.lowSpeedTime)
        try set(CURLOPT_TIMEOUT_MS, c.transferTimeout.map { Int($0 * 1000) } ?? 0)  // 0 = no limit
        try check(ccurl_easy_setopt_offt(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(c.maxBodyBytes)), "CURLOPT_MAXFILESIZE_LARGE")
        try set(CURLOPT_USERAGENT, c.userAgent)
        for header in c.headers {
            // curl_slist_append copies the string; returns NULL (and leaves the list as it was) on failure.
            guard let list = curl_slist_append(headerList, "\(header.name): \(header.value)") else {
                throw HTTPError(.setup("curl_slist_append failed"), url: "")
            }
            headerList = list
        }
        if let headerList {
            try check(ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()  // the multi owner keeps self alive while in use
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me), "CURLOPT_WRITEDATA")
        try check(ccurl_easy_setopt_write(handle, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
            guard let userdata else { return 0 }  // 0 makes curl fail with CURLE_WRITE_ERROR
            let easy = Unmanaged<CurlEasy>.fromOpaque(userdata).takeUnretainedValue()
            return easy.receiveBody(data, size * count)
        }, "CURLOPT_WRITEFUNCTION")
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, me), "CURLOPT_HEADERDATA")
        try check(ccurl_easy_setopt_write(handle, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
            guard let userdata else { return 0 }
            let easy = Unmanaged<CurlEasy>.fromOpaque(userdata).takeUnretainedValue()
            return easy.receiveHeader(data, size * count)
        }, "CURLOPT_HEADERFUNCTION")
    }

    /// Points the handle at `url` and forgets the previous attempt's body and headers.
    func prepare(url: String) throws(HTTPError) {
        body = Data()
        responseHeaderLines.removeAll()
        bodyTooLarge = false
        errorBuffer[0] = 0
        let code = ccurl_easy_setopt_string(handle, CURLOPT_URL, url)
        guard code == CURLE_OK else {
            throw HTTPError(.invalidInput("unusable URL (\(CurlGlobal.message(for: code)))"), url: url)
        }
    }

    /// Hands over the body received and leaves an empty one in its place.
    func takeBody() -> Data {
        defer { body = Data() }
        return body
    }

    /// libcurl's detailed message for a failed transfer, or its generic one for `code`.
    func errorMessage(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer).trimmingCharacters(in: .whitespacesAndNewlines)
        return detail.isEmpty ? CurlGlobal.message(for: code) : detail
    }

    /// The HTTP status of the last response, 0 when none arrived.
    var responseCode: Int {
        var code = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)  // leaves 0 on failure
        return code
    }

    /// The `Retry-After` of the last response in seconds, as libcurl parsed it (delta-seconds or
    /// an HTTP date); nil when absent.
    var retryAfterSeconds: Double? {
        var seconds: curl_off_t = 0
        guard ccurl_easy_getinfo_offt(handle, CURLINFO_RETRY_AFTER, &seconds) == CURLE_OK,
              responseHeaderLines.dictionary["retry-after"] != nil else { return nil }
        return Double(max(seconds, 0))
    }

    private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let data else { return count }
        if body.count + count > maxBodyBytes {
            bodyTooLarge = true
            return 0  // makes curl stop with CURLE_WRITE_ERROR
        }
        body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: count)
        return count
    }

    /// Called once per header line: kept as bytes (see `HTTPHeaderLines`).
    private func receiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let data, count > 0 else { return count }
        responseHeaderLines.append(UnsafeRawBufferPointer(start: data, count: count))
        return count
    }

    private func set(_ option: CURLoption, _ value: Int) throws(HTTPError) {
        try check(ccurl_easy_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, _ value: String) throws(HTTPError) {
        try check(ccurl_easy_setopt_string(handle, option, value), "option \(option.rawValue)")  // curl copies strings
    }

    private func check(_ code: CURLcode, _ what: String) throws(HTTPError) {
        guard code == CURLE_OK else {
            throw HTTPError(.setup("curl_easy_setopt \(what): \(CurlGlobal.message(for: code))"), url: "")
        }
    }
}
