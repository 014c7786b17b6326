import Foundation
import Geometry

/// An error as `--json` prints it on stderr, one line:
/// `{"error":{"kind":"not_a_geopackage","message":"…","input":"bad.gpkg"}}`.
///
/// `kind` is one of ``ErrorKind``'s words; `message` is what the text form prints after
/// `Error: `; `input` is the argument at fault as it was typed (a path, an area, a layer), or
/// null when the error is not about one of them.
struct ErrorReport {
    var kind: String
    var message: String
    var input: String?

    var json: JSONValue {
        .object(["error": .object(["kind": .string(kind), "message": .string(message), "input": .string(input)])])
    }

    /// The arguments that name an input a message may point at: files, areas, CRSs, layers, filters.
    static let inputArguments: Set<String> = [
        "package", "source", "features", "from", "tiles", "area", "area-crs", "crs", "output", "svg",
        "changeset", "geometry", "layer", "where", "schema-only",
    ]

    /// The values given for ``inputArguments`` on a parsed command line, with the option's name.
    static func inputs(of parsed: ParsedArguments) -> [(name: String, value: String)] {
        parsed.definitions.filter { $0.kind != .flag && inputArguments.contains($0.name) && parsed.isPresent($0.name) }
            .flatMap { definition in
                ((try? parsed.values(definition.name, as: String.self)) ?? []).map { (definition.name, $0) }
            }
    }

    /// The input a message is about: the one it names first, as typed, as an absolute path, or
    /// by its option (`--area POLYGON(…)`, `--where parks:…`). Errors name their input (the
    /// modules' rule), so the message is the authority; nil when it names none.
    static func input(named message: String, among inputs: [(name: String, value: String)]) -> String? {
        var best: (position: Int, length: Int, value: String)?
        for (name, value) in inputs where !value.isEmpty {
            let spellings = [value, URL(fileURLWithPath: value).standardizedFileURL.path, "--\(name) ", "--\(name):", "--\(name)="]
            for spelling in spellings {
                guard let position = firstWordPosition(of: spelling, in: message) else { continue }
                if best.map({ position < $0.position || (position == $0.position && spelling.count > $0.length) }) ?? true {
                    best = (position, spelling.count, value)
                }
            }
        }
        return best?.value
    }

    /// Where `text` first occurs in `message` not inside a longer word or path.
    private static func firstWordPosition(of text: String, in message: String) -> Int? {
        var searchRange = message.startIndex..<message.endIndex
        while let range = message.range(of: text, range: searchRange) {
            let before = range.lowerBound == message.startIndex ? nil : message[message.index(before: range.lowerBound)]
            if before.map({ $0 == " " || $0 == "'" || $0 == "\"" || $0 == "(" || $0 == "@" }) ?? true {
                return message.distance(from: message.startIndex, to: range.lowerBound)
            }
            searchRange = range.upperBound..<message.endIndex
        }
        return nil
    }
}
