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
        if let zooms {
            text += "; the basemap holds zoom \(zooms.lowerBound)-\(zooms.upperBound)"
        } else {
            text += "; the basemap holds no tiles"
        }
        return [text]
    }
}
