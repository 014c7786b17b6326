import Geometry
import SQLite

/// Fills an empty SQLite R-tree (`CREATE VIRTUAL TABLE ... USING rtree(id, minx, maxx, miny,
/// maxy)`) by writing its nodes straight into its shadow tables (`_node`, `_rowid`,
/// `_parent`), packed bottom-up as entries stream in, instead of inserting them one by one.
///
/// An R-tree insert through SQL descends the tree, rewrites the leaf and its ancestors and
/// splits nodes: about fifty thousand instructions per entry, more than the rest of a
/// package build put together. Packing writes each node once. Memory stays constant: a
/// window of entries is sorted (sort-tile-recursive, x then y) into leaves, and each level
/// keeps only the one node it is filling. Entries arrive in the source's R-tree order, so
/// windows are already spatially coherent.
///
/// The result is an ordinary SQLite R-tree (`rtreecheck` passes, later inserts, updates
/// and deletes use SQLite's own algorithms): node blobs in SQLite's format (big-endian
/// depth and cell count, then 8-byte ids and 32-bit float coordinates, minimums rounded
/// down and maximums up as SQLite rounds them), node size taken from the empty root.
///
/// - Important: Not thread-safe; it uses the writer's connection, in the writer's
///   transaction, and the R-tree must be empty and not written otherwise until ``finish()``.
final class RTreeLoader {
    struct Cell {
        var id: Int64
        var minX: Float, maxX: Float, minY: Float, maxY: Float
        var centerX: Float { minX / 2 + maxX / 2 }
        var centerY: Float { minY / 2 + maxY / 2 }
    }

    /// Bytes of every node blob, and the cells a node holds.
    let nodeSize: Int
    let maxCells: Int
    private let writeNode: Statement
    private let writeRowID: Statement
    private let writeParent: Statement
    /// Leaf entries waiting to be sorted into leaves.
    private var window: [Cell] = []
    private let windowSize: Int
    /// Per height (1 = parents of leaves), the child nodes of the node being filled.
    private var levels: [[Cell]] = [[]]
    /// Nodes written per height: a height that wrote none holds everything of its height.
    private var written: [Int] = [0]
    private var nextNode: Int64 = 2  // node 1 is the root, written last

    /// - Throws: `SQLiteError` when the shadow tables cannot be read or prepared for writing.
    init(connection: Connection, rtree name: String) throws {
        let node = SQL.identifier(name + "_node")
        let size = try connection.scalar("SELECT length(data) FROM \(node) WHERE nodeno = 1")?.int64Value ?? 0
        nodeSize = Int(size)
        maxCells = (nodeSize - 4) / 24
        guard maxCells >= 3 else {
            throw ExtractError(.output, "R-tree \(name): unexpected node size \(nodeSize)")
        }
        windowSize = maxCells * maxCells
        window.reserveCapacity(windowSize)
        writeNode = try connection.prepare("INSERT OR REPLACE INTO \(node) (nodeno, data) VALUES (?, ?)")
        writeRowID = try connection.prepare("INSERT INTO \(SQL.identifier(name + "_rowid")) (rowid, nodeno) VALUES (?, ?)")
        writeParent = try connection.prepare("INSERT INTO \(SQL.identifier(name + "_parent")) (nodeno, parentnode) VALUES (?, ?)")
    }

    /// Adds one entry.
    func add(id: Int64, _ e: Envelope) throws {
        window.append(Cell(id: id, minX: Self.down(e.minX), maxX: Self.up(e.maxX),
                           minY: Self.down(e.minY), maxY: Self.up(e.maxY)))
        if window.count == windowSize { try flushWindow() }
    }

    /// Writes what is pending and the root. The R-tree is complete afterwards.
    func finish() throws {
        try flushWindow()
        var height = 0
        while true {
            let pending = levels[height]
            let above = levels.indices.contains(height + 1) ? levels[height + 1].count + written[height + 1] : 0
            if written[height] == 0 && above == 0 {
                // Everything of this height is here: it is the root (depth = height).
                if !pending.isEmpty || height == 0 { try write(pending, node: 1, height: height, depth: height) }
                return
            }
            if !pending.isEmpty { try emit(height: height) }
            height += 1
        }
    }

    // MARK: Packing

    /// Sorts the window into leaves: slices by x, each slice by y, leaves of maxCells.
    private func flushWindow() throws {
        guard !window.isEmpty else { return }
        window.sort { $0.centerX < $1.centerX }
        let leaves = (window.count + maxCells - 1) / maxCells
        let slices = Int(Double(leaves).squareRoot().rounded(.up))
        let perSlice = ((leaves + slices - 1) / slices) * maxCells
        var start = 0
        while start < window.count {
            let end = min(start + perSlice, window.count)
            window[start..<end].sort { $0.centerY < $1.centerY }
            var i = start
            while i < end {
                let j = min(i + maxCells, end)
                levels[0].append(contentsOf: window[i..<j])
                if levels[0].count == maxCells { try emit(height: 0) }
                i = j
            }
            start = end
        }
        window.removeAll(keepingCapacity: true)
    }

    /// Writes the node being filled at `height` under a new number and hands it to its parent.
    private func emit(height: Int) throws {
        let cells = levels[height]
        let node = nextNode
        nextNode += 1
        try write(cells, node: node, height: height, depth: 0)
        levels[height].removeAll(keepingCapacity: true)
        written[height] += 1
        if levels.count == height + 1 {
            levels.append([])
            written.append(0)
        }
        var box = cells[0]
        for c in cells.dropFirst() {
            box.minX = min(box.minX, c.minX); box.maxX = max(box.maxX, c.maxX)
            box.minY = min(box.minY, c.minY); box.maxY = max(box.maxY, c.maxY)
        }
        box.id = node
        levels[height + 1].append(box)
        if levels[height + 1].count == maxCells { try emit(height: height + 1) }
    }

    /// One node blob, and the rows that map its entries (data ids or child nodes) to it.
    private func write(_ cells: [Cell], node: Int64, height: Int, depth: Int) throws {
        var blob = [UInt8](repeating: 0, count: nodeSize)
        Self.put16(UInt16(depth), into: &blob, at: 0)
        Self.put16(UInt16(cells.count), into: &blob, at: 2)
        var offset = 4
        for c in cells {
            Self.put64(UInt64(bitPattern: c.id), into: &blob, at: offset)
            Self.put32(c.minX.bitPattern, into: &blob, at: offset + 8)
            Self.put32(c.maxX.bitPattern, into: &blob, at: offset + 12)
            Self.put32(c.minY.bitPattern, into: &blob, at: offset + 16)
            Self.put32(c.maxY.bitPattern, into: &blob, at: offset + 20)
            offset += 24
        }
        try run(writeNode, [.integer(node), .blob(blob)])
        let map = height == 0 ? writeRowID : writeParent
        for c in cells { try run(map, [.integer(c.id), .integer(node)]) }
    }

    private func run(_ statement: Statement, _ values: [SQLiteValue]) throws {
        try statement.bind(values)
        while try statement.step() {}
        statement.reset()
    }

    // MARK: SQLite's formats

    // SQLite stores 32-bit floats and widens boxes that do not convert exactly, the
    // minimum down and the maximum up, with these factors (rtreeValueDown / rtreeValueUp).
    private static let towards = 1.0 - 1.0 / 8_388_608.0
    private static let away = 1.0 + 1.0 / 8_388_608.0

    static func down(_ d: Double) -> Float {
        let f = Float(d)
        return Double(f) > d ? Float(d * (d < 0 ? away : towards)) : f
    }

    static func up(_ d: Double) -> Float {
        let f = Float(d)
        return Double(f) < d ? Float(d * (d < 0 ? towards : away)) : f
    }

    private static func put16(_ v: UInt16, into b: inout [UInt8], at i: Int) {
        b[i] = UInt8(v >> 8); b[i + 1] = UInt8(v & 0xFF)
    }

    private static func put32(_ v: UInt32, into b: inout [UInt8], at i: Int) {
        for k in 0..<4 { b[i + k] = UInt8((v >> (24 - 8 * UInt32(k))) & 0xFF) }
    }

    private static func put64(_ v: UInt64, into b: inout [UInt8], at i: Int) {
        for k in 0..<8 { b[i + k] = UInt8((v >> (56 - 8 * UInt64(k))) & 0xFF) }
    }
}
