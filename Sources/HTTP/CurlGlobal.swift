import CCurl

/// libcurl's process-wide initialisation, run once. Swift initialises globals lazily and
/// atomically, so the first client on any thread runs `curl_global_init` and the others wait.
private let curlGlobalInitResult: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

enum CurlGlobal {
    /// Runs `curl_global_init` the first time; later calls return its remembered result.
    static func ensureInitialised() throws(HTTPError) {
        let code = curlGlobalInitResult
        guard code == CURLE_OK else {
            throw HTTPError(.setup("curl_global_init failed: \(CurlGlobal.message(for: code))"), url: "")
        }
    }

    static func message(for code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}

/// Which libcurl errors are worth another attempt.
enum CurlErrorClass {
    static func isRetryable(_ code: Int) -> Bool {
        switch CURLcode(UInt32(truncatingIfNeeded: code)) {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
             CURLE_OPERATION_TIMEDOUT, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SEND_ERROR,
             CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_SSL_CONNECT_ERROR,
             CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR, CURLE_WEIRD_SERVER_REPLY:
            return true
        default:
            return false
        }
    }
}
