/// Checking a value before it is written: typed by its column, then NOT NULL and the
/// column's data column constraint (enum, range, glob), with messages that say what would
/// have been accepted.
import Foundation
import Geodatabase
import SQLite

/// The checks for one layer's attribute values.
struct ValueChecker {
    let layer: LayerInfo
    let schema: GeoPackageSchema
    let connection: Connection

    /// The field a caller may write, by name (any letter case).
    /// - Throws: ``PackageError``: `unknownField`, `readOnlyField` for the key, the globalid
    ///   and the geometry column.
    func writableField(_ name: String) throws -> FieldInfo {
        guard let field = layer.field(named: name) else { throw PackageError.unknownField(name, in: layer) }
        let name = SQLName(field.name)
        if name == layer.primaryKey.map({ SQLName($0) }) {
            throw PackageError(.readOnlyField, "'\(field.name)' is the key of layer '\(layer.name)'; the package assigns it")
        }
        if name == layer.globalIDColumn.map({ SQLName($0) }) {
            throw PackageError(.readOnlyField, "'\(field.name)' is the identity of a feature across the source and its packages; it cannot be set")
        }
        if name == layer.geometryColumn.map({ SQLName($0.name) }) {
            throw PackageError(.readOnlyField, "'\(field.name)' is the geometry of layer '\(layer.name)'; set it as a geometry (move, WKT or GeoJSON)")
        }
        return field
    }

    /// Text typed by the column: `42` for an INTEGER, `2.5` for a REAL, `true` for a BOOLEAN,
    /// `x'89504E47'` or `@photo.jpg` for a BLOB.
    /// - Throws: ``PackageError`` (`wrongType`) naming the field, its type and the text.
    func parse(_ text: String, for field: FieldInfo) throws -> FieldValue {
        let type = ColumnType(declared: field.declaredType)
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer:
            guard let value = Int64(trimmed) else { throw wrongType(field, type, "'\(text)' is not an integer") }
            return .integer(value)
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "1", "yes": return .integer(1)
            case "false", "0", "no": return .integer(0)
            default: throw wrongType(field, type, "'\(text)' is not true or false")
            }
        case .real:
            guard let value = Double(trimmed), value.isFinite else { throw wrongType(field, type, "'\(text)' is not a number") }
            return .real(value)
        case .blob:
            return try parseBlob(text, for: field)
        case .text, .date, .dateTime, .any:
            return .text(text)
        }
    }

    /// The value as it will be stored, after every check.
    /// - Throws: ``PackageError``: `wrongType`, `constraintViolation`.
    func checked(_ value: FieldValue, for field: FieldInfo) throws -> FieldValue {
        if value.isNull {
            guard !field.isNotNull else {
                throw PackageError(.constraintViolation, "'\(field.name)' of layer '\(layer.name)' is NOT NULL; it needs a value")
            }
            return .null
        }
        let stored = try typed(value, for: field)
        try checkConstraint(stored, for: field)
        return stored
    }

    private func typed(_ value: FieldValue, for field: FieldInfo) throws -> FieldValue {
        let type = ColumnType(declared: field.declaredType)
        switch (type, value) {
        case (.any, _):
            return value
        case (.integer(_, let range), .integer(let v)):
            guard range.contains(v) else { throw wrongType(field, type, "\(v) is outside \(range.lowerBound)...\(range.upperBound)") }
            return value
        case (.integer(_, let range), .real(let v)):
            // A whole number given as a double is still that number.
            guard v.rounded() == v, let exact = Int64(exactly: v), range.contains(exact) else {
                throw wrongType(field, type, "\(v) is not a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            return .integer(exact)
        case (.boolean, .integer(let v)):
            guard v == 0 || v == 1 else { throw wrongType(field, type, "\(v) is not 0 (false) or 1 (true)") }
            return value
        case (.real, .real):
            return value
        case (.real, .integer(let v)):
            return .real(Double(v))
        case (.text(let maxLength), .text(let text)):
            if let maxLength, text.count > maxLength {
                throw wrongType(field, type, "the text has \(text.count) characters, more than \(maxLength)")
            }
            return value
        case (.text(let maxLength), .textBytes(let bytes)):
            // Text that is not UTF-8 (Latin-1 from an older client): a byte is a character.
            if let maxLength, bytes.count > maxLength {
                throw wrongType(field, type, "the text has \(bytes.count) characters, more than \(maxLength)")
            }
            return value
        case (.date, .text(let text)):
            guard Self.isDate(text) else { throw wrongType(field, type, "'\(text)' is not a date written YYYY-MM-DD") }
            return value
        case (.dateTime, .text(let text)):
            guard Self.isDateTime(text) else {
                throw wrongType(field, type, "'\(text)' is not a date and time written YYYY-MM-DDTHH:MM:SS[.SSS]Z")
            }
            return value
        case (.blob, .blob):
            return value
        default:
            throw wrongType(field, type, "\(Self.kindName(of: value)) \(Self.quoted(value)) cannot be stored in it")
        }
    }

    private func checkConstraint(_ value: FieldValue, for field: FieldInfo) throws {
        guard let name = field.dataColumn?.constraintName, let constraint = schema.constraints[name] else { return }
        switch constraint.rule {
        case .enumeration(let allowed):
            let text = Self.plainText(value)
            guard allowed.contains(where: { $0.value == text }) else {
                let list = allowed.map { "'\($0.value)'" }.joined(separator: ", ")
                throw PackageError(.constraintViolation,
                                   "'\(text)' is not an allowed value of '\(field.name)' (constraint \(name)); allowed: \(list)")
            }
        case .range(let min, let minInclusive, let max, let maxInclusive):
            guard let number = value.doubleValue else {
                throw PackageError(.constraintViolation, "'\(field.name)' (constraint \(name)) takes a number, not \(value)")
            }
            let aboveMin = min.map { minInclusive ? number >= $0 : number > $0 } ?? true
            let belowMax = max.map { maxInclusive ? number <= $0 : number < $0 } ?? true
            guard aboveMin && belowMax else {
                let low = min.map { (minInclusive ? "[" : "(") + Self.format($0) } ?? "(-inf"
                let high = max.map { Self.format($0) + (maxInclusive ? "]" : ")") } ?? "+inf)"
                throw PackageError(.constraintViolation,
                                   "\(Self.plainText(value)) is outside the range of '\(field.name)' (constraint \(name)): \(low), \(high)")
            }
        case .glob(let pattern):
            // SQLite's own GLOB, so the test is the one the spec means.
            // Text is matched as it is stored (its bytes, UTF-8 or not).
            let subject = value.storageClass == .text ? value : .text(Self.plainText(value))
            let matches = try connection.scalar("SELECT ? GLOB ?", [subject, .text(pattern)])
            guard matches?.int64Value == 1 else {
                throw PackageError(.constraintViolation,
                                   "'\(Self.plainText(value))' does not match the pattern of '\(field.name)' (constraint \(name)): \(pattern)")
            }
        }
    }

    func wrongType(_ field: FieldInfo, _ type: ColumnType, _ detail: String) -> PackageError {
        PackageError(.wrongType, "'\(field.name)' of layer '\(layer.name)' is \(type.name): \(detail)")
    }

    /// A value as the text an enum row holds: `42`, `2.5`, `abc`.
    static func plainText(_ value: FieldValue) -> String {
        switch value {
        case .text(let text): text
        case .textBytes: value.displayText ?? ""
        case .integer(let v): String(v)
        case .real(let v): format(v)
        case .null: "NULL"
        case .blob: value.description
        }
    }

    /// A value as an error message quotes it: an SQL literal, text that is not UTF-8 escaped.
    private static func quoted(_ value: FieldValue) -> String {
        if case .textBytes = value, let shown = value.displayText { return "'\(shown)'" }
        return value.description
    }

    private static func format(_ v: Double) -> String {
        v.rounded() == v && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    private static func kindName(of value: FieldValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer: "the integer"
        case .real: "the number"
        case .text, .textBytes: "the text"
        case .blob: "a blob"
        }
    }

    static func isDate(_ text: String) -> Bool {
        guard text.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else { return false }
        return parsedDate(text + "T00:00:00Z") != nil
    }

    static func isDateTime(_ text: String) -> Bool {
        guard text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z/) != nil else { return false }
        return parsedDate(text) != nil
    }

    /// Rejects month 13, February 30th and the like, which the patterns let through.
    private static func parsedDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        // HH:MM without seconds: the spec allows it; the formatter does not.
        if text.wholeMatch(of: /.*T\d{2}:\d{2}Z/) != nil { return parsedDate(String(text.dropLast()) + ":00Z") }
        return nil
    }
}
