import CCurl

/// One libcurl multi handle: runs many easy handles at once on the calling thread and keeps
/// their connections alive between requests.
/// - Important: not thread-safe; one thread drives it at a time.
final class CurlMulti {
    private let handle: UnsafeMutableRawPointer
    /// The easy handles added and not yet removed, by their C pointer; holding them here keeps
    /// each `CurlEasy` (the callbacks' userdata) alive while libcurl may call back into it.
    private var attached: [UnsafeMutableRawPointer: CurlEasy] = [:]

    init(maxConnections: Int) throws(HTTPError) {
        try CurlGlobal.ensureInitialised()
        guard let handle = curl_multi_init() else {  // NULL when out of memory
            throw HTTPError(.setup("curl_multi_init returned NULL"), url: "")
        }
        self.handle = handle
        // Never more sockets than the concurrency asked for; idle ones stay cached for reuse.
        _ = ccurl_multi_setopt_long(handle, CURLMOPT_MAX_TOTAL_CONNECTIONS, maxConnections)
        _ = ccurl_multi_setopt_long(handle, CURLMOPT_MAXCONNECTS, maxConnections)
    }

    deinit {
        for easy in attached.values { curl_multi_remove_handle(handle, easy.handle) }
        attached.removeAll()
        curl_multi_cleanup(handle)  // easy handles are freed by their own CurlEasy
    }

    func add(_ easy: CurlEasy) throws(HTTPError) {
        let code = curl_multi_add_handle(handle, easy.handle)
        guard code == CURLM_OK else {
            throw HTTPError(.setup("curl_multi_add_handle: \(String(cString: curl_multi_strerror(code)))"), url: "")
        }
        attached[easy.handle] = easy
    }

    func remove(_ easy: CurlEasy) {
        curl_multi_remove_handle(handle, easy.handle)  // only fails for handles not added
        attached[easy.handle] = nil
    }

    /// Lets libcurl move every transfer forward as far as it can without blocking.
    func perform() throws(HTTPError) {
        var running: Int32 = 0
        let code = curl_multi_perform(handle, &running)
        guard code == CURLM_OK else {
            throw HTTPError(.setup("curl_multi_perform: \(String(cString: curl_multi_strerror(code)))"), url: "")
        }
    }

    /// Transfers that have finished since the last call, with libcurl's result for each.
    func completed() -> [(easy: CurlEasy, result: CURLcode)] {
        var done: [(CurlEasy, CURLcode)] = []
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(handle, &remaining) {  // owned by libcurl, valid until the next call
            guard message.pointee.msg == CURLMSG_DONE, let pointer = message.pointee.easy_handle,
                  let easy = attached[pointer] else { continue }
            done.append((easy, ccurl_msg_result(message)))
        }
        return done
    }

    /// Waits until a socket is ready or `timeout` seconds pass. Waits the full time even
    /// with no transfers, which is what pacing and backoff need.
    func poll(timeout: Double) throws(HTTPError) {
        let milliseconds = Int32(max(0, min(timeout, 3600)) * 1000)
        let code = curl_multi_poll(handle, nil, 0, milliseconds, nil)
        guard code == CURLM_OK else {
            throw HTTPError(.setup("curl_multi_poll: \(String(cString: curl_multi_strerror(code)))"), url: "")
        }
    }
}
