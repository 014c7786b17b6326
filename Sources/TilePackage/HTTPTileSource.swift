import Foundation
import HTTP

/// Tiles fetched over HTTP(S) from an XYZ or TMS URL template, many at once, with retries
/// and timeouts (see `HTTPConfiguration`). Connections are kept alive across calls.
///
/// A tile the server does not have (404, 204) is `.absent`; a tile whose retries ran out is
/// `.failed`, and the run goes on. The sizes of the tiles fetched are remembered so an
/// estimate can use them.
/// - Important: not thread-safe; the concurrency happens inside `fetch`.
public final class HTTPTileSource: TileSource {
    public let template: TileURLTemplate
    private let client: HTTPClient
    private let isCancelled: () -> Bool
    private var cachedMetadata: TileSourceMetadata?

    /// - Parameters:
    ///   - template: `https://host/{z}/{x}/{y}.png`, or `{-y}` for TMS rows.
    ///   - configuration: concurrency, rate, retries, timeouts, User-Agent, extra headers.
    ///   - isCancelled: polled while fetching (at least every 100 ms); when it returns true
    ///     the transfers stop and `fetch` throws `CancellationError`.
    /// - Throws: `TilePackageError.invalidInput` for a bad template or unusable settings.
    public init(template: String, configuration: HTTPConfiguration = HTTPConfiguration(),
                isCancelled: @escaping () -> Bool = { false }) throws(TilePackageError) {
        self.template = try TileURLTemplate(template)
        do {
            client = try HTTPClient(configuration: configuration)
        } catch {
            throw TilePackageError(.invalidInput, "HTTP tile source \(self.template.redacted): \(error)")
        }
        self.isCancelled = isCancelled
    }

    /// The template without its query string: never a key, a token or a header.
    public var identity: String { template.redacted }

    /// The format from the template's extension, or else from the `Content-Type` of the tile
    /// 0/0/0; the description is the redacted template. A URL says nothing about names,
    /// attribution or bounds.
    public func metadata() throws -> TileSourceMetadata {
        if let cachedMetadata { return cachedMetadata }
        var format = template.formatFromExtension
        if format == nil {
            try fetchResponses([TileID(z: 0, x: 0, y: 0)]) { response in
                format = response.contentType.flatMap(TileURLTemplate.format(forContentType:))
            }
        }
        let metadata = TileSourceMetadata(format: format, description: identity)
        cachedMetadata = metadata
        return metadata
    }

    public func fetch(_ tiles: some Sequence<TileID>, _ report: (TileID, TileFetchResult) throws -> Void) throws {
        try fetchResponses(tiles) { response in
            switch response.outcome {
            case .body(let data): try report(response.tag, .data(data))
            case .absent: try report(response.tag, .absent)
            case .failed(let error): try report(response.tag, .failed(error.description))
            }
        }
    }

    /// Fetches `tiles` and hands over each raw response.
    /// - Throws: `CancellationError` once `isCancelled` says so; `TilePackageError.io` when
    ///   libcurl itself fails; what `handle` throws.
    func fetchResponses(_ tiles: some Sequence<TileID>, _ handle: (HTTPResponse<TileID>) throws -> Void) throws {
        let requests = tiles.lazy.map { [template] tile in HTTPRequest(url: template.url(for: tile), tag: tile) }
        do {
            try client.fetch(requests, isCancelled: isCancelled, handle)
        } catch let error as HTTPError {
            if error.kind == .cancelled { throw CancellationError() }  // as TileCoverage reports it
            throw TilePackageError(.io, "fetching tiles from \(identity): \(error)")
        }
    }
}
