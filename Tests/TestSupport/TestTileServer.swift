import Foundation

/// What the test tile server is told to do wrong (see `Tests/Servers/tile_server.py`).
public struct TileServerScript: Encodable, Sendable {
    public struct Rule: Encodable, Sendable {
        /// A regular expression searched in the request path (without the query string).
        public var match: String
        /// The faults the 1st, 2nd, ... request for a matching path gets: "500", "429:S",
        /// "429-date:S", "stall:S", "truncate", "404", "204", "ok".
        public var responses: [String]
        public init(match: String, responses: [String]) {
            self.match = match
            self.responses = responses
        }
    }
    /// Seconds added to every response.
    public var delay: Double
    public var rules: [Rule]
    public init(delay: Double = 0, rules: [Rule] = []) {
        self.delay = delay
        self.rules = rules
    }
}

/// What the server saw, reported when it stops.
public struct TileServerStats: Decodable, Sendable {
    public struct Request: Decodable, Sendable {
        /// The path with its query string.
        public var path: String
        /// Seconds since the server started.
        public var t: Double
        /// Request headers, names lowercased.
        public var headers: [String: String]
    }
    public var requests: Int
    /// The most connections open at once.
    public var max_connections: Int
    /// Connections accepted in all.
    public var connections_opened: Int
    /// The most requests being answered at once.
    public var max_inflight: Int
    /// Requests per path (without query string).
    public var counts: [String: Int]
    public var log: [Request]
}

public struct TileServerError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// A real HTTP/1.1 server on 127.0.0.1 serving the tiles of an MBTiles file from `testdata/`,
/// run as a child process (`/usr/bin/python3 Tests/Servers/tile_server.py`). It stops when
/// `stop()` closes its stdin, or when the test process dies, so it never outlives a test.
public final class TestTileServer: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let input: Pipe
    private let output: LineCollector

    /// `http://127.0.0.1:PORT`
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the server and waits (at most 15 s) for the port it bound.
    public init(mbtiles: String = "ne_raster_z0-5.mbtiles", script: TileServerScript = TileServerScript()) throws {
        let scriptJSON = String(decoding: try JSONEncoder().encode(script), as: UTF8.self)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TestData.root.appendingPathComponent("Tests/Servers/tile_server.py").path,
                             "--mbtiles", TestData.url(mbtiles).path, "--script", scriptJSON]
        input = Pipe()
        let stdout = Pipe()
        process.standardInput = input
        process.standardOutput = stdout
        output = LineCollector(stdout.fileHandleForReading)
        try process.run()
        guard let line = output.line(0, timeout: 15), let port = Int(line) else {
            process.terminate()
            throw TileServerError(description: "test tile server did not report its port")
        }
        self.port = port
    }

    /// Stops the server (at most 15 s) and returns what it saw.
    @discardableResult
    public func stop() throws -> TileServerStats {
        try? input.fileHandleForWriting.close()
        guard let line = output.line(1, timeout: 15) else {
            process.terminate()
            throw TileServerError(description: "test tile server did not report its statistics")
        }
        process.waitUntilExit()
        return try JSONDecoder().decode(TileServerStats.self, from: Data(line.utf8))
    }

    deinit {
        if process.isRunning {
            try? input.fileHandleForWriting.close()
            process.terminate()
        }
    }
}

/// Collects a child's stdout lines on a background thread so the test can wait with a timeout.
private final class LineCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer = Data()
    private var lines: [String] = []
    private var ended = false

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData  // empty at end of file
                condition.lock()
                if chunk.isEmpty {
                    ended = true
                } else {
                    buffer.append(chunk)
                    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                        buffer.removeSubrange(buffer.startIndex...newline)
                    }
                }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    /// The line with this index, waiting for it at most `timeout` seconds.
    func line(_ index: Int, timeout: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while lines.count <= index && !ended {
            if !condition.wait(until: deadline) { break }
        }
        return index < lines.count ? lines[index] : nil
    }
}
