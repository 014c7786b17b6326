/// One position. `z` and `m` are carried through every codec and transform when present.
public struct Coordinate: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double?
    public var m: Double?

    public init(x: Double, y: Double, z: Double? = nil, m: Double? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.m = m
    }

    public init(_ x: Double, _ y: Double) {
        self.init(x: x, y: y)
    }

    public var dimension: CoordinateDimension {
        CoordinateDimension(hasZ: z != nil, hasM: m != nil)
    }
}

/// Which ordinates a geometry carries beyond x and y.
public enum CoordinateDimension: Sendable, Hashable {
    case xy, xyz, xym, xyzm

    public init(hasZ: Bool, hasM: Bool) {
        switch (hasZ, hasM) {
        case (false, false): self = .xy
        case (true, false): self = .xyz
        case (false, true): self = .xym
        case (true, true): self = .xyzm
        }
    }

    public var hasZ: Bool { self == .xyz || self == .xyzm }
    public var hasM: Bool { self == .xym || self == .xyzm }
}
