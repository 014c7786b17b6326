/// Word wrapping for help text and tables, by characters (the terminal columns of the
/// plain-ASCII text help is written in).
enum TextWrapping {
    /// Wraps words to `width` columns. The first line starts after `firstPrefix`; later lines
    /// are indented by `indent` spaces. A word longer than a line gets a line of its own.
    static func wrap(_ words: [String], width: Int, firstPrefix: String = "", indent: Int) -> String {
        var lines: [String] = []
        var line = firstPrefix
        var lineHasWord = false
        for word in words where !word.isEmpty {
            let candidateLength = line.count + (lineHasWord ? 1 : 0) + word.count
            if lineHasWord && candidateLength > width {
                lines.append(line)
                line = String(repeating: " ", count: indent) + word
            } else {
                line += (lineHasWord ? " " : "") + word
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Wraps prose, keeping blank-line paragraph breaks.
    static func wrapParagraphs(_ text: String, width: Int, indent: Int = 0) -> String {
        let paragraphs = text.components(separatedBy: "\n\n")
        return paragraphs.map { paragraph in
            let words = paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            return wrap(words, width: width, firstPrefix: String(repeating: " ", count: indent),
                        indent: indent)
        }.joined(separator: "\n\n")
    }
}
