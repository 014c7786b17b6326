/// What the envelope of a GeoPackage geometry header holds (flags bits 1-3).
public enum GeoPackageEnvelopeKind: UInt8, Sendable, Hashable, CaseIterable {
    /// No envelope (code 0); GDAL writes points this way.
    case none = 0
    /// minX, maxX, minY, maxY (code 1).
    case xy = 1
    /// xy plus minZ, maxZ (code 2).
    case xyz = 2
    /// xy plus minM, maxM (code 3).
    case xym = 3
    /// xy plus z and m ranges (code 4).
    case xyzm = 4

    /// How many doubles the envelope takes in the header: 0, 4, 6 or 8.
    public var doubleCount: Int {
        switch self {
        case .none: return 0
        case .xy: return 4
        case .xyz, .xym: return 6
        case .xyzm: return 8
        }
    }

    var hasZ: Bool { self == .xyz || self == .xyzm }
    var hasM: Bool { self == .xym || self == .xyzm }
}

/// The envelope stored in a GeoPackage geometry header: the 2D box plus optional z and m ranges.
///
/// Equality compares bit patterns, so an envelope of NaN values (the spec's empty point)
/// equals itself and a decoded envelope compares equal to its re-encoding.
public struct GeoPackageEnvelope: Sendable, Hashable {
    /// A closed range of one ordinate; NaN bounds mean "no value" and are kept as read.
    public struct OrdinateRange: Sendable, Hashable {
        public var min: Double
        public var max: Double
        public init(min: Double, max: Double) {
            self.min = min
            self.max = max
        }

        public static func == (a: OrdinateRange, b: OrdinateRange) -> Bool {
            a.min.bitPattern == b.min.bitPattern && a.max.bitPattern == b.max.bitPattern
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(min.bitPattern)
            hasher.combine(max.bitPattern)
        }
    }

    public var x: OrdinateRange
    public var y: OrdinateRange
    public var z: OrdinateRange?
    public var m: OrdinateRange?

    public init(x: OrdinateRange, y: OrdinateRange, z: OrdinateRange? = nil, m: OrdinateRange? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.m = m
    }

    public init(_ xy: Envelope, z: OrdinateRange? = nil, m: OrdinateRange? = nil) {
        self.init(x: OrdinateRange(min: xy.minX, max: xy.maxX), y: OrdinateRange(min: xy.minY, max: xy.maxY), z: z, m: m)
    }

    /// The header code this envelope is written with.
    public var kind: GeoPackageEnvelopeKind {
        switch (z != nil, m != nil) {
        case (false, false): return .xy
        case (true, false): return .xyz
        case (false, true): return .xym
        case (true, true): return .xyzm
        }
    }

    /// The 2D box; nil when any bound is NaN (the envelope of an empty geometry).
    public var xy: Envelope? {
        if x.min.isNaN || x.max.isNaN || y.min.isNaN || y.max.isNaN { return nil }
        return Envelope(minX: x.min, minY: y.min, maxX: x.max, maxY: y.max)
    }
}
