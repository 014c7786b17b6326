import Foundation

extension DecodingError {
    /// What is wrong with a JSON document, in words that name the key at fault as it is
    /// written in the file (`layers[0].count`), instead of Swift's debug description.
    var words: String {
        switch self {
        case .keyNotFound(let key, let context):
            return "key '\(Self.keyPath(context.codingPath + [key]))' is missing"
        case .valueNotFound(let type, let context):
            return "key '\(Self.keyPath(context.codingPath))' is null; it must be \(Self.name(of: type))"
        case .typeMismatch(let type, let context):
            return "key '\(Self.keyPath(context.codingPath))' must be \(Self.name(of: type))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON" + Self.position(context.underlyingError)
        case .dataCorrupted(let context):
            return "key '\(Self.keyPath(context.codingPath))' has a value that cannot be read"
        @unknown default:
            return "it cannot be read"
        }
    }

    /// `layers[0].count`: keys joined by dots, array positions in brackets.
    static func keyPath(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "(the document)" }
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    static func name(of type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: return "an integer"
        case is any BinaryFloatingPoint.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is [Any].Type: return "a list"
        case is [String: Any].Type: return "an object"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") { return "a list" }
            if name.hasPrefix("Dictionary<") { return "an object" }
            return "an object"
        }
    }

    /// Foundation's JSON parser says where it stopped ("around line 1, column 2"); keep that.
    static func position(_ error: (any Error)?) -> String {
        guard let error else { return "" }
        let info = (error as NSError).userInfo
        guard let detail = info[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty else { return "" }
        return " (\(detail))"
    }
}
