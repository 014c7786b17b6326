import Foundation

/// Looks for an MBTiles file's rows outside their zoom's range on a thread of its own, while
/// the caller goes on copying: the check seeks once per column of every zoom read (some
/// thousands of seeks for a large file), work that need not hold up the copy, which never
/// selects those rows anyway.
///
/// The thread opens its own read-only connection to the file; `warnings` waits for it.
final class OutOfRangeCheck: @unchecked Sendable {
    // @unchecked: `result` is written once by the thread and read after `finished` is
    // signalled, both under `lock`.
    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var result: [String]?

    /// Starts the check of the rows of `zooms` (nil: every row) of the file at `path`.
    init(path: String, zooms: ClosedRange<Int>?) {
        let thread = Thread { [self] in
            let warnings = Self.warnings(path: path, zooms: zooms)
            lock.withLock { result = warnings }
            finished.signal()
        }
        thread.name = "pkgbuild.mbtiles-range-check"
        thread.start()
    }

    /// The check's findings in words for a person; waits for the check to end.
    var warnings: [String] {
        if let done = lock.withLock({ result }) { return done }
        finished.wait()
        finished.signal()  // Let any other waiter through too.
        return lock.withLock { result } ?? []
    }

    private static func warnings(path: String, zooms: ClosedRange<Int>?) -> [String] {
        do {
            guard let bad = try MBTilesReader(path: path).outOfRangeRows(zooms: zooms) else { return [] }
            let e = bad.example
            return ["\(path): \(bad.count) tile rows lie outside their zoom's range and are ignored "
                + "(for example zoom_level \(e.zoom), tile_column \(e.column), tile_row \(e.row))"]
        } catch {
            return ["\(path): rows outside their zoom's range could not be looked for: \(error)"]
        }
    }
}
