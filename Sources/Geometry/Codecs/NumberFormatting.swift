extension Double {
    /// The shortest decimal that reads back as exactly this double (Swift's own repr),
    /// without the `.0` of whole numbers: `1`, `-0`, `0.1`, `1e+16`, `nan`, `inf`.
    var shortestRepresentation: String {
        let s = description
        if s.hasSuffix(".0") { return String(s.dropLast(2)) }
        return s
    }
}
