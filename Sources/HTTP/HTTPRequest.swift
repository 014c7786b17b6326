/// One GET request: a URL and an opaque tag the caller uses to recognise the response
/// (responses arrive in completion order, not request order).
public struct HTTPRequest<Tag: Sendable>: Sendable {
    public var url: String
    public var tag: Tag

    public init(url: String, tag: Tag) {
        self.url = url
        self.tag = tag
    }
}
