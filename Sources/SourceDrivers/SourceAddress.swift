/// A source's address as messages may show it: a password never leaves the address it was
/// given in, neither into an error, a report nor a package.
import Foundation

public enum SourceAddress {
    /// `address` with its password replaced by `***`: the password of a URI's user
    /// information (`postgresql://user:secret@host/db`), and the value of a `password=`
    /// parameter in a connection string (`PG:"dbname=x password=secret"`) or a URI's query.
    public static func redacted(_ address: String) -> String {
        var text = address
        if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") {
            let userInfo = text[scheme.upperBound..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        return redactingParameter(in: text)
    }

    /// Replaces the value of every `password=` parameter (quoted or not, any letter case).
    private static func redactingParameter(in text: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: #"(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&']*)"#) else {
            return text
        }
        let range = NSRange(text.startIndex..., in: text)
        return pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "$1***")
    }
}
