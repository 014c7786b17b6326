/// Response header lines as libcurl hands them over (`Name: value\r\n` each), kept as bytes
/// and turned into a dictionary only when someone asks: most responses' headers are never
/// read, and building Swift strings and a dictionary for every line of every response cost
/// more than the transfer itself.
struct HTTPHeaderLines: Sendable {
    private(set) var bytes: [UInt8] = []

    /// Adds one line; a status line (`HTTP/...`) starts a new response (after a redirect or a
    /// 100 Continue), dropping the lines before it.
    mutating func append(_ line: UnsafeRawBufferPointer) {
        if line.count >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
           line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/") {
            bytes.removeAll(keepingCapacity: true)
            return
        }
        bytes.append(contentsOf: line)
        if line.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    }

    mutating func removeAll() {
        bytes = []
    }

    /// The headers by name, lowercased; repeated names joined with ", ".
    var dictionary: [String: String] {
        var result: [String: String] = [:]
        bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                var end = start
                while end < all.count, all[end] != UInt8(ascii: "\n") { end += 1 }
                Self.add(UnsafeRawBufferPointer(rebasing: all[start..<end]), to: &result)
                start = end + 1
            }
        }
        return result
    }

    private static func add(_ line: UnsafeRawBufferPointer, to headers: inout [String: String]) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var nameEnd = colon
        while nameEnd > 0, isSpace(line[nameEnd - 1]) { nameEnd -= 1 }
        var valueStart = colon + 1
        while valueStart < line.count, isSpace(line[valueStart]) { valueStart += 1 }
        var valueEnd = line.count
        while valueEnd > valueStart, isSpace(line[valueEnd - 1]) { valueEnd -= 1 }
        let name = String(decoding: line[0..<nameEnd].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd]), as: UTF8.self)
        if let previous = headers[name] {
            headers[name] = previous + ", " + value
        } else {
            headers[name] = value
        }
    }
}
