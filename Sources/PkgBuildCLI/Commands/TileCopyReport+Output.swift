import Geometry
import TilePackage

/// A basemap copy's report as `tiles` prints it and `create` too (under `basemap` in JSON):
/// one pipeline, one account of what it did.
extension TileCopyReport {
    /// `85 tiles (zoom 0-3), 1.2 MB written; 2 tiles left out, ...`; the zooms held in
    /// brackets, since with a gap they are a list (`zoom 0-1, 3`).
    var summary: String {
        var line = "\(written + resumed) tiles"
        if !heldZooms.isEmpty { line += " (zoom \(ZoomList.text(heldZooms)))" }
        line += ", \(TilesCommand.humanBytes(bytes)) written"
        if resumed > 0 { line += ", \(resumed) kept from the interrupted run" }
        if absent > 0 { line += "; \(absent) tile\(absent == 1 ? "" : "s") absent from the source" }
        if failed > 0 { line += "; \(failed) tile\(failed == 1 ? "" : "s") left out, their retries ran out (--skip-failed)" }
        return line
    }

    var jsonMembers: [JSONMember] {
        func perZoom(_ counts: [Int: Int]) -> JSONValue {
            .array(counts.sorted { $0.key < $1.key }.map { .object(["zoom": .int($0.key), "tiles": .int($0.value)]) })
        }
        return [
            JSONMember("requested", .int(requested)),
            JSONMember("written", .int(written)),
            JSONMember("resumed", .int(resumed)),
            JSONMember("absent", .int(absent)),
            JSONMember("failed", .int(failed)),
            JSONMember("failed_tiles", .array(failures.map {
                .object(["tile": .string("\($0.tile)"), "reason": .string($0.reason)])
            })),
            JSONMember("absent_per_zoom", perZoom(absentByZoom)),
            JSONMember("failed_per_zoom", perZoom(failedByZoom)),
            JSONMember("bytes", .int(bytes)),
            JSONMember("min_zoom", zooms.map { JSONValue.int($0.lowerBound) } ?? .null),
            JSONMember("max_zoom", zooms.map { JSONValue.int($0.upperBound) } ?? .null),
            JSONMember("held_zooms", .array(heldZooms.map { .int($0) })),
        ]
    }
}
