import Foundation
import HTTP

/// How a tile job reaches an HTTP source; a file source ignores it. `tiles` and `create`
/// fill it from the same options (`--concurrency`, `--rate`, `--header`).
public struct TileSourceOptions: Sendable {
    public var concurrency: Int
    /// At most this many requests a second; nil for no limit.
    public var requestsPerSecond: Double?
    /// Extra request headers (`Authorization`, `Referer`...), never stored or printed.
    public var headers: [(name: String, value: String)]
    /// `pkgbuild/<version>`.
    public var userAgent: String

    public init(concurrency: Int = 8, requestsPerSecond: Double? = nil, headers: [(name: String, value: String)] = [],
                userAgent: String = HTTPConfiguration.userAgent(version: nil)) {
        self.concurrency = concurrency
        self.requestsPerSecond = requestsPerSecond
        self.headers = headers
        self.userAgent = userAgent
    }
}

/// The one opener of tile sources behind every tile job: an XYZ/TMS URL template over HTTP,
/// or an MBTiles file.
public enum TileSources {
    /// - Parameters:
    ///   - source: a URL template (`https://host/{z}/{x}/{y}.png`) or an MBTiles path.
    ///   - zooms: the zooms a file source is checked over.
    /// - Throws: `TilePackageError(.invalidInput)` for a bad template, a missing or unreadable file.
    public static func open(_ source: String, zooms: ClosedRange<Int>, options: TileSourceOptions,
                            isCancelled: @escaping () -> Bool) throws -> any TileSource {
        if TileURLTemplate.isURL(source) {
            var configuration = HTTPConfiguration()
            configuration.concurrency = options.concurrency
            configuration.requestsPerSecond = options.requestsPerSecond
            configuration.headers = options.headers
            configuration.userAgent = options.userAgent
            return try HTTPTileSource(template: source, configuration: configuration, isCancelled: isCancelled)
        }
        guard FileManager.default.fileExists(atPath: source) else {
            throw TilePackageError(.invalidInput, "tile source \(source) does not exist")
        }
        return try MBTilesSource(path: source, zooms: zooms)
    }
}
