enum SQLText {
    /// The statement as a message quotes it: one line, at most 200 characters.
    static func excerpt(_ sql: String) -> String {
        let oneLine = sql.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == " " })
            .joined(separator: " ")
        return oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine
    }
}
