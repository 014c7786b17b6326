/// A recursive-descent parser of well-known text over its UTF-8 bytes.
struct WKTParser {
    /// Collections nested deeper than this are refused, so hostile text cannot exhaust the stack.
    static let maximumDepth = 32

    private let text: [UInt8]
    private var position = 0

    init(_ text: [UInt8]) {
        self.text = text
    }

    mutating func parseAll() throws -> Geometry {
        skipSpace()
        if hasPrefix("SRID=") {
            guard let semicolon = text[position...].firstIndex(of: UInt8(ascii: ";")) else {
                throw error("an EWKT SRID prefix without ';'")
            }
            position = semicolon + 1
        }
        let g = try geometry(inherited: nil, depth: 0)
        skipSpace()
        if position < text.count { throw error("unexpected text after the geometry") }
        return g
    }

    // MARK: Grammar

    private mutating func geometry(inherited: CoordinateDimension?, depth: Int) throws -> Geometry {
        if depth > Self.maximumDepth {
            throw error("collections nested more than \(Self.maximumDepth) deep")
        }
        let (type, declared) = try typeAndDimension()
        // A member without its own Z/M takes the collection's, as GDAL and PostGIS read it.
        var dims = Dimensions(declared ?? inherited)
        if try empty() { return type.emptyGeometry }
        switch type {
        case .point:
            try expect("(")
            let c = try coordinate(&dims)
            try expect(")")
            return .point(Point(c))
        case .lineString:
            return .lineString(LineString(try coordinateList(&dims)))
        case .polygon:
            return .polygon(try polygonText(&dims))
        case .multiPoint:
            return .multiPoint(MultiPoint(try list {
                if try $0.empty() { return Point(nil) }
                // Points inside MULTIPOINT may come with or without their own parentheses.
                if $0.peek(UInt8(ascii: "(")) {
                    try $0.expect("(")
                    let c = try $0.coordinate(&dims)
                    try $0.expect(")")
                    return Point(c)
                }
                return Point(try $0.coordinate(&dims))
            }))
        case .multiLineString:
            return .multiLineString(MultiLineString(try list { LineString(try $0.coordinateListOrEmpty(&dims)) }))
        case .multiPolygon:
            return .multiPolygon(MultiPolygon(try list { try $0.empty() ? Polygon([]) : try $0.polygonText(&dims) }))
        case .geometryCollection:
            let d = dims.known
            return .geometryCollection(GeometryCollection(try list { try $0.geometry(inherited: d, depth: depth + 1) }))
        case .geometry:
            throw error("GEOMETRY is not a concrete type")
        }
    }

    private mutating func typeAndDimension() throws -> (GeometryType, CoordinateDimension?) {
        skipSpace()
        let start = position
        var word = self.word().uppercased()
        guard !word.isEmpty else { throw error("expected a geometry type") }
        var glued: CoordinateDimension?
        if GeometryType(name: word) == nil {
            // Older writers glue the dimension to the name: POINTZ, LINESTRINGM, POLYGONZM.
            for (tail, d) in [("ZM", CoordinateDimension.xyzm), ("Z", .xyz), ("M", .xym)]
            where word.hasSuffix(tail) && GeometryType(name: String(word.dropLast(tail.count))) != nil {
                word = String(word.dropLast(tail.count))
                glued = d
                break
            }
        }
        guard let type = GeometryType(name: word) else {
            let curves = ["CIRCULARSTRING", "COMPOUNDCURVE", "CURVEPOLYGON", "MULTICURVE", "MULTISURFACE",
                          "CURVE", "SURFACE", "POLYHEDRALSURFACE", "TIN", "TRIANGLE"]
            if curves.contains(word) {
                throw GeometryError(.unsupported, "WKT: \(word) at character \(start + 1) is not supported")
            }
            position = start
            throw error("unknown geometry type '\(word)'")
        }
        if let glued { return (type, glued) }
        let save = position
        skipSpace()
        switch self.word().uppercased() {
        case "Z": return (type, .xyz)
        case "M": return (type, .xym)
        case "ZM": return (type, .xyzm)
        default:
            position = save
            return (type, nil)
        }
    }

    private mutating func polygonText(_ dims: inout Dimensions) throws -> Polygon {
        Polygon(try list { try $0.coordinateListOrEmpty(&dims) })
    }

    private mutating func coordinateListOrEmpty(_ dims: inout Dimensions) throws -> [Coordinate] {
        try empty() ? [] : try coordinateList(&dims)
    }

    private mutating func coordinateList(_ dims: inout Dimensions) throws -> [Coordinate] {
        try list { try $0.coordinate(&dims) }
    }

    /// `( item , item ... )`
    private mutating func list<T>(_ item: (inout WKTParser) throws -> T) throws -> [T] {
        try expect("(")
        var items: [T] = []
        repeat {
            items.append(try item(&self))
        } while try comma()
        try expect(")")
        return items
    }

    /// Two to four numbers; the first coordinate fixes how many when the text did not say.
    private mutating func coordinate(_ dims: inout Dimensions) throws -> Coordinate {
        let start = position
        var values: [Double] = []
        values.reserveCapacity(4)
        while values.count < 4, let v = try number() { values.append(v) }
        skipSpace()
        if position < text.count, !isDelimiter(text[position]) { throw error("expected ',' or ')' after at most 4 numbers") }
        if values.count < 2 {
            position = start
            throw error("a coordinate needs at least 2 numbers, found \(values.count)")
        }
        let d = try dims.fix(count: values.count, at: start)
        return Coordinate(x: values[0], y: values[1],
                          z: d.hasZ ? values[2] : nil,
                          m: d.hasM ? values[d.hasZ ? 3 : 2] : nil)
    }

    // MARK: Tokens

    private mutating func number() throws -> Double? {
        skipSpace()
        let start = position
        while position < text.count, !isDelimiter(text[position]), !isSpace(text[position]) { position += 1 }
        if start == position { return nil }
        let token = String(decoding: text[start..<position], as: UTF8.self)
        guard let v = Double(token) else {
            position = start
            throw error("'\(token)' is not a number")
        }
        return v
    }

    private mutating func word() -> String {
        let start = position
        while position < text.count, isLetter(text[position]) { position += 1 }
        return String(decoding: text[start..<position], as: UTF8.self)
    }

    private mutating func empty() throws -> Bool {
        skipSpace()
        let save = position
        if word().uppercased() == "EMPTY" { return true }
        position = save
        return false
    }

    private mutating func comma() throws -> Bool {
        skipSpace()
        if peek(UInt8(ascii: ",")) {
            position += 1
            return true
        }
        return false
    }

    private mutating func expect(_ c: Character) throws {
        skipSpace()
        guard let ascii = c.asciiValue, peek(ascii) else { throw error("expected '\(c)'") }
        position += 1
    }

    private mutating func peek(_ c: UInt8) -> Bool {
        skipSpace()
        return position < text.count && text[position] == c
    }

    private func hasPrefix(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard text.count - position >= u.count else { return false }
        for (i, c) in u.enumerated() where text[position + i] | 0x20 != c | 0x20 { return false }
        return true
    }

    private mutating func skipSpace() {
        while position < text.count, isSpace(text[position]) { position += 1 }
    }

    private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    private func isDelimiter(_ c: UInt8) -> Bool { c == UInt8(ascii: "(") || c == UInt8(ascii: ")") || c == UInt8(ascii: ",") }
    private func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }

    func error(_ what: String) -> GeometryError {
        let found: String
        if position >= text.count {
            found = "the end of the text"
        } else {
            found = "'" + String(decoding: text[position..<min(text.count, position + 12)], as: UTF8.self) + "'"
        }
        return GeometryError(.malformedInput, "WKT: \(what) at character \(position + 1), found \(found)")
    }

    /// The ordinates of the geometry being read: declared, inherited, or fixed by the first coordinate.
    struct Dimensions {
        var known: CoordinateDimension?
        init(_ known: CoordinateDimension?) { self.known = known }

        mutating func fix(count: Int, at offset: Int) throws -> CoordinateDimension {
            if let known {
                guard known.ordinateCount == count else {
                    throw GeometryError(.malformedInput, "WKT: a coordinate at character \(offset + 1) has \(count) numbers, \(known.ordinateCount) expected")
                }
                return known
            }
            let d: CoordinateDimension = count == 2 ? .xy : count == 3 ? .xyz : .xyzm
            known = d
            return d
        }
    }
}

extension GeometryType {
    /// The empty geometry of this type (a GEOMETRY is taken as an empty collection).
    var emptyGeometry: Geometry {
        switch self {
        case .point: return .point(Point(nil))
        case .lineString: return .lineString(LineString([]))
        case .polygon: return .polygon(Polygon([]))
        case .multiPoint: return .multiPoint(MultiPoint([]))
        case .multiLineString: return .multiLineString(MultiLineString([]))
        case .multiPolygon: return .multiPolygon(MultiPolygon([]))
        case .geometryCollection, .geometry: return .geometryCollection(GeometryCollection([]))
        }
    }
}
