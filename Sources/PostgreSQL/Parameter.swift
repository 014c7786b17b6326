/// A value bound to a statement's `$1`, `$2`... (`PQexecParams`). Text is sent in text format
/// for the server to read as the parameter's type; bytes as binary `bytea`.
///
/// Literals work: `["Denali", 42, 1.5, true, nil]` is `[.text, .text, .text, .text, .null]`.
public enum Parameter: Sendable, Hashable {
    case null
    /// Text the server reads as the parameter's type (`'42'` as an integer, a date, json...).
    case text(String)
    /// Bytes sent as text as they are: the server checks they are valid in its encoding (a
    /// UTF8 database refuses Latin-1 bytes with SQLSTATE 22021).
    case textBytes([UInt8])
    /// Bytes sent in binary format as a `bytea`.
    case bytea([UInt8])

    public static func int(_ value: Int) -> Parameter { .text(String(value)) }

    /// Swift's shortest text that reads back as the same double; PostgreSQL spells the
    /// non-finite ones `Infinity`, `-Infinity` and `NaN`.
    public static func double(_ value: Double) -> Parameter {
        if value.isNaN { return .text("NaN") }
        if value.isInfinite { return .text(value < 0 ? "-Infinity" : "Infinity") }
        return .text("\(value)")
    }

    public static func bool(_ value: Bool) -> Parameter { .text(value ? "true" : "false") }
}

extension Parameter: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}

/// The C arrays `PQexecParams` takes, built once from the parameters: every value in one
/// buffer, NUL-terminated, so the pointers stay valid for the call.
struct ParameterArrays {
    /// `bytea`'s type OID: binary parameters need it, or the server guesses text.
    static let byteaOID: UInt32 = 17

    private var buffer: [CChar] = []
    private var offsets: [Int?] = []
    var types: [UInt32] = []
    var lengths: [Int32] = []
    var formats: [Int32] = []

    init(_ parameters: [Parameter], sql: String) throws {
        for (index, parameter) in parameters.enumerated() {
            switch parameter {
            case .null: append(nil, type: 0, format: 0)
            case .text(let text): try appendText(Array(text.utf8), index: index, sql: sql)
            case .textBytes(let bytes): try appendText(bytes, index: index, sql: sql)
            case .bytea(let bytes): append(bytes, type: Self.byteaOID, format: 1)
            }
        }
    }

    var count: Int32 { Int32(offsets.count) }

    /// Text goes as a C string, which ends at the first NUL: text holding one would arrive cut
    /// short, so it is refused here (PostgreSQL's text cannot hold NUL anyway).
    private mutating func appendText(_ bytes: [UInt8], index: Int, sql: String) throws {
        if bytes.contains(0) {
            throw PostgreSQLError(.invalidParameter,
                                  "parameter $\(index + 1) holds a NUL character, which PostgreSQL text cannot store - while executing \"\(SQLText.excerpt(sql))\"")
        }
        append(bytes, type: 0, format: 0)
    }

    private mutating func append(_ bytes: [UInt8]?, type: UInt32, format: Int32) {
        types.append(type)
        formats.append(format)
        guard let bytes else {
            offsets.append(nil)
            lengths.append(0)
            return
        }
        offsets.append(buffer.count)
        lengths.append(Int32(bytes.count))
        buffer.append(contentsOf: bytes.map { CChar(bitPattern: $0) })
        buffer.append(0)
    }

    /// Calls `body` with the value pointers (NULL for a NULL parameter).
    func withValues<T>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) throws -> T) rethrows -> T {
        try buffer.withUnsafeBufferPointer { bytes in
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in offset.map { bytes.baseAddress! + $0 } }
            return try pointers.withUnsafeBufferPointer { try body($0.baseAddress) }
        }
    }
}
