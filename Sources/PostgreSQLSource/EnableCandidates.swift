/// The tables `source enable` may track, read from the catalog with what decides whether it
/// can: an integer primary key the database numbers (a package's new rows are numbered by
/// the source, never synced), and a `globalid` column of type uuid when one exists.
import PostgreSQL
import SourceDrivers

/// One table `enable` is asked to track.
struct EnableCandidate: Sendable, Hashable {
    var name: String
    var keyColumn: String
    /// The existing column named `globalid` in any letter case.
    var globalIDColumn: String?
    /// Every column, in table order.
    var columns: [String]
}

enum EnableCandidates {
    /// The tables named, or every ordinary and partitioned table of the schema that no
    /// extension owns (PostGIS's `spatial_ref_sys` is not a layer).
    /// - Throws: ``SourceError`` listing every table that cannot be tracked, and why.
    static func read(_ database: SourceDatabase, named: [String]?) throws -> [EnableCandidate] {
        let rows = try database.connection.query("""
            SELECT c.oid::bigint, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition
              AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
            ORDER BY c.relname
            """, [.text(database.schema)])
        var oids: [String: Int] = [:]
        for row in rows { oids[row.string(1) ?? ""] = try row.int(0) }
        let names = named ?? rows.compactMap { $0.string(1) }
        if let missing = names.first(where: { oids[$0] == nil }) {
            throw SourceError(.notFound, "source \(database.displayName): there is no table '\(missing)' in schema \(database.schema)")
        }
        var problems: [String] = []
        var candidates: [EnableCandidate] = []
        for name in names {
            switch try candidate(name, oid: oids[name]!, on: database.connection) {
            case .success(let candidate): candidates.append(candidate)
            case .failure(let problem): problems.append("\(name): \(problem.text)")
            }
        }
        guard problems.isEmpty else {
            throw SourceError(.unusable, "source \(database.displayName): cannot track "
                + problems.joined(separator: "; ") + " (name the tables to track with --table); nothing was changed")
        }
        return candidates
    }

    struct Problem: Error { var text: String }

    private static func candidate(_ name: String, oid: Int, on connection: Connection) throws -> Result<EnableCandidate, Problem> {
        let columns = try connection.query("""
            SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.atttypid::regtype::text,
                   a.atthasdef OR a.attidentity <> '',
                   EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY (i.indkey)),
                   (SELECT i.indnatts FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary)
            FROM pg_attribute a WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
            """, [.int(oid)])
        let keys = try columns.filter { try $0.bool(4) == true }
        guard let key = keys.first else { return .failure(Problem(text: "it has no primary key")) }
        let keyName = key.string(0) ?? ""
        guard keys.count == 1, (try key.int(5)) == 1 else {
            return .failure(Problem(text: "its primary key has more than one column"))
        }
        guard ["smallint", "integer", "bigint"].contains(key.string(2) ?? "") else {
            return .failure(Problem(text: "its primary key \(keyName) is \(key.string(1) ?? "?"), not an integer"))
        }
        guard try key.bool(3) == true else {
            return .failure(Problem(text: "its primary key \(keyName) has no default (serial or identity), so rows "
                + "added in packages could not be numbered"))
        }
        let globalID = columns.first { ($0.string(0) ?? "").lowercased() == "globalid" }
        if let globalID, globalID.string(2) != "uuid" {
            return .failure(Problem(text: "its column \(globalID.string(0) ?? "") is \(globalID.string(1) ?? "?"), not uuid "
                + "(convert it: ALTER TABLE … ALTER COLUMN … TYPE uuid USING …::uuid)"))
        }
        return .success(EnableCandidate(name: name, keyColumn: keyName, globalIDColumn: globalID?.string(0),
                                        columns: columns.compactMap { $0.string(0) }))
    }
}
