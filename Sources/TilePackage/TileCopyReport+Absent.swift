extension TileCopyReport {
    /// Says which zooms lack tiles the area takes because the source has none there (HTTP 404
    /// or 204, missing rows, zooms beyond the source's deepest), and which zooms the output
    /// really holds; empty when nothing is absent. A basemap silently short of its deepest
    /// zooms is what a field team finds out about only in the field.
    public func absenceWarnings(_ coverage: TileCoverage) -> [String] {
        guard absent > 0 else { return [] }
        let perZoom = coverage.zooms.compactMap { z -> String? in
            guard let missing = absentByZoom[z], missing > 0 else { return nil }
            let asked = coverage.count(zoom: z)
            return missing >= asked ? "zoom \(z): all \(asked)" : "zoom \(z): \(missing) of \(asked)"
        }
        var text = "\(absent) tile\(absent == 1 ? "" : "s") of the area absent from the source (\(perZoom.joined(separator: "; ")))"
        if !heldZooms.isEmpty {
            text += "; the basemap holds zoom \(ZoomList.text(heldZooms))"
        } else {
            text += "; the basemap holds no tiles"
        }
        return [text]
    }
}

extension TileCopyReport {
    /// The most failed tiles a report lists one by one (the count covers them all).
    public static let listedFailures = 20

    /// For a copy finished without the tiles the source failed to deliver (`skipFailed`):
    /// how many, and each of the first ones with why; empty when none failed.
    public func skippedFailureWarnings(_ source: String) -> [String] {
        guard failed > 0 else { return [] }
        var text = "\(failed) tile\(failed == 1 ? "" : "s") could not be fetched from \(source) and \(failed == 1 ? "is" : "are") "
            + "left out: " + failures.map { "\($0.tile) (\($0.reason))" }.joined(separator: "; ")
        if failed > failures.count { text += "; and \(failed - failures.count) more" }
        return [text]
    }
}
