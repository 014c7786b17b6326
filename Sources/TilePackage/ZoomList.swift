/// Zoom levels as people read them: runs of consecutive zooms joined, `0-5, 7`, so that a
/// basemap with a gap does not pass for one that holds every zoom between its ends.
public enum ZoomList {
    /// `0-5, 7, 9-10` for [0, 1, 2, 3, 4, 5, 7, 9, 10]; the zooms in any order, repeats
    /// ignored; empty for none.
    public static func text(_ zooms: some Sequence<Int>) -> String {
        runs(zooms).map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ", ")
    }

    /// The runs of consecutive zooms, in order.
    public static func runs(_ zooms: some Sequence<Int>) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for z in Set(zooms).sorted() {
            if let last = runs.last, last.upperBound + 1 == z {
                runs[runs.count - 1] = last.lowerBound...z
            } else {
                runs.append(z...z)
            }
        }
        return runs
    }
}
