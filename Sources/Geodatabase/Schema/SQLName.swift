/// A table or column name, compared the way SQLite compares identifiers: letters A-Z fold to
/// a-z and every other byte stays as it is, so `Parcels` and `PARCELS` name one table while
/// `É` and `é` name two (SQLite accepts `CREATE TABLE t("É" INT, "é" INT)`). Full Unicode
/// lowercasing would merge names SQLite keeps apart, so a name compares by its ASCII fold.
///
/// The name keeps its spelling as written, for messages and for the SQL it is quoted into.
import SQLite

public struct SQLName: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as written.
    public let text: String
    /// `text` with A-Z folded to a-z, as SQLite's `lower()` gives it (built without ICU), for
    /// SQL that compares `lower(table_name)`. Equality, hashing and order read its UTF-8 bytes,
    /// as SQLite does (String's own `==` would equate canonically equivalent spellings that
    /// SQLite keeps apart). The same string as `text`, unallocated, when there is nothing to fold.
    public let folded: String

    public init(_ text: String) {
        self.text = text
        // Names are made per row and column in a sync: the scan reads the contiguous bytes.
        var bytes = text
        folded = bytes.withUTF8 { $0.contains(where: Self.isUpper) }
            ? String(decoding: text.utf8.map { Self.isUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
            : text
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { text }

    /// Whether `text` names this, in the fold: asked per column of every row a sync reads, so
    /// a name of another length (the fold keeps lengths) is told apart without folding it.
    public func isName(_ text: String) -> Bool {
        text.utf8.count == folded.utf8.count && SQLName(text) == self
    }

    /// Whether the name starts with `prefix`, folded the same way (`gpkg_`, `rtree_`...).
    public func hasPrefix(_ prefix: SQLName) -> Bool {
        folded.utf8.starts(with: prefix.folded.utf8)
    }

    public static func == (a: SQLName, b: SQLName) -> Bool {
        UTF8Bytes.equal(a.folded, b.folded)
    }

    public func hash(into hasher: inout Hasher) {
        var bytes = folded
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public static func < (a: SQLName, b: SQLName) -> Bool {
        a.folded.utf8.lexicographicallyPrecedes(b.folded.utf8)
    }

    private static func isUpper(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte)
    }
}

extension Sequence where Element == String {
    /// Whether one of these names is `name`, in SQLite's case fold.
    public func contains(name: SQLName) -> Bool {
        contains { SQLName($0) == name }
    }

    /// The first of these names that is `name` in SQLite's case fold, spelled as it is here.
    public func first(name: SQLName) -> String? {
        first { SQLName($0) == name }
    }
}

extension Collection where Element == String {
    /// The position of `name` among these names, in SQLite's case fold.
    public func firstIndex(name: SQLName) -> Index? {
        firstIndex { SQLName($0) == name }
    }
}
