/// "Did you mean ...?" for a misspelt option or subcommand: the known word nearest to what was
/// typed, by edit distance, when it is near enough to be a slip rather than another word.
enum Suggestion {
    /// The candidate closest to `typed`, or nil when none is plausibly what was meant.
    ///
    /// Near enough: at most a third of the typed word's letters edited (dashes not counted; at
    /// least one edit, at most three), so `--zom` finds `--zoom` and `sycn` finds `sync`, but
    /// `--x` suggests nothing. A word the typed one begins (`--dry` for `--dry-run`) counts too.
    /// Ties go to the candidate declared first.
    static func nearest(to typed: String, among candidates: [String]) -> String? {
        // Dashes are not letters a person misspells.
        let letters = typed.drop(while: { $0 == "-" }).count
        let limit = min(3, max(1, letters / 3))
        var best: (word: String, distance: Int)?
        for candidate in candidates where candidate != typed {
            let distance = candidate.hasPrefix(typed) && letters >= 3
                ? 1 : editDistance(typed, candidate)
            guard distance <= limit else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.word
    }

    /// `message` with `; did you mean 'WORD'?` when a candidate is near `typed`.
    static func message(_ message: String, typed: String, among candidates: [String]) -> String {
        guard let word = nearest(to: typed, among: candidates) else { return message }
        return "\(message); did you mean '\(word)'?"
    }

    /// Levenshtein distance counting a swap of two neighbours as one edit (`sycn` -> `sync`),
    /// the slip typists make most (optimal string alignment distance).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
