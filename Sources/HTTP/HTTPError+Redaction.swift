import Foundation

extension HTTPError {
    /// Query parameter names whose values are secrets. Compared case-insensitively; a name that
    /// ends in one of these after `_` or `-` (e.g. `x-api-key`, `client_secret`) counts too.
    static let credentialParameterNames: Set<String> = [
        "key", "apikey", "api_key", "api-key", "access_token", "token", "auth", "authorization",
        "secret", "client_secret", "password", "passwd", "pwd", "signature", "sig", "sas",
        "subscription-key", "session", "x-amz-signature", "x-amz-credential", "x-amz-security-token",
    ]

    /// Returns `url` with the values of credential-like query parameters replaced by `REDACTED`
    /// and any `user:password@` userinfo removed, so the URL can appear in messages and logs.
    ///
    /// Only the query string and userinfo change; the rest of the URL is kept as given.
    public static func redactingCredentials(in url: String) -> String {
        var text = url
        text = removingUserInfo(from: text)
        guard let queryStart = text.firstIndex(of: "?") else { return text }
        let fragmentStart = text[queryStart...].firstIndex(of: "#") ?? text.endIndex
        let query = text[text.index(after: queryStart)..<fragmentStart]
        let redacted = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            return isCredentialName(name) ? String(name) + "=REDACTED" : String(pair)
        }.joined(separator: "&")
        return String(text[...queryStart]) + redacted + String(text[fragmentStart...])
    }

    /// `url` without its query string, fragment and userinfo: a description of a source that is
    /// safe to store in metadata.
    public static func strippingQuery(from url: String) -> String {
        var text = removingUserInfo(from: url)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        return text
    }

    static func isCredentialName(_ rawName: Substring) -> Bool {
        let name = (rawName.removingPercentEncoding ?? String(rawName)).lowercased()
        if credentialParameterNames.contains(name) { return true }
        return ["key", "token", "secret", "password", "signature"].contains { suffix in
            name.hasSuffix("_" + suffix) || name.hasSuffix("-" + suffix)
        }
    }

    private static func removingUserInfo(from url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = url[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<authorityStart]) + String(url[url.index(after: at)...])
    }
}
