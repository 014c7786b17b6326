/// An upload's writes at a PostgreSQL source: one statement a row, through the transaction's
/// ``RowWriter``, each value written as its column's `SourceColumn` says.
import Geodatabase
import Geometry
import PostgreSQL
import SourceDrivers

extension PostgreSQLSyncSource {
    public func apply(_ write: SourceWrite, in table: TableShape) throws -> SourceWriteOutcome {
        guard let writer else {
            throw SourceError(.unusable, "source \(displayName): a write outside a write transaction")
        }
        let tracked = try self.tracked(table.name)
        let prepared: PreparedWrite
        do { prepared = try statement(for: write, in: tracked) } catch let refusal as SourceRefusal {
            return .refused(refusal)
        }
        switch try writer.apply(prepared, refusal: { try self.refusal($0, in: tracked) }) {
        case .success(let changed): return .applied(found: changed > 0)
        case .failure(let refusal): return .refused(refusal)
        }
    }

    /// `SELECT … ORDER BY globalid FOR UPDATE`: PostgreSQL locks the rows in the order the
    /// sort gives them, so two uploads lock their common rows in one order and wait for each
    /// other instead of deadlocking; ten thousand ids a statement.
    public func lockRows(_ globalIDs: [String], in table: TableShape) throws {
        let tracked = try self.tracked(table.name)
        // Only a uuid can be in a uuid column; anything else would abort the transaction.
        let ids = globalIDs.filter { GlobalID.normalized($0) != nil }
        for start in stride(from: 0, to: ids.count, by: 10_000) {
            let chunk = Array(ids[start..<min(start + 10_000, ids.count)])
            _ = try connection.execute("""
                SELECT 1 FROM \(database.qualified(tracked.catalog.name)) WHERE \(gid(tracked)) = ANY ($1::uuid[])
                ORDER BY \(gid(tracked)) FOR UPDATE
                """, [.text(PostgreSQLQuoting.textArray(chunk))])
        }
    }

    private func statement(for write: SourceWrite, in table: TrackedTable) throws -> PreparedWrite {
        let name = database.qualified(table.catalog.name)
        switch write {
        case .insert(let row):
            let (columns, placeholders, parameters) = try assignments(row, in: table, startingAt: 1)
            return PreparedWrite(sql: "INSERT INTO \(name) (\(columns.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))",
                                 parameters: parameters)
        case .update(let globalID, let row):
            let (columns, placeholders, parameters) = try assignments(row, in: table, startingAt: 2)
            guard !columns.isEmpty else {
                return PreparedWrite(sql: "SELECT 1 FROM \(name) WHERE \(gid(table)) = $1::uuid", parameters: [.text(globalID)])
            }
            let sets = zip(columns, placeholders).map { "\($0) = \($1)" }.joined(separator: ", ")
            return PreparedWrite(sql: "UPDATE \(name) SET \(sets) WHERE \(gid(table)) = $1::uuid", parameters: [.text(globalID)] + parameters)
        case .delete(let globalID):
            return PreparedWrite(sql: "DELETE FROM \(name) WHERE \(gid(table)) = $1::uuid", parameters: [.text(globalID)])
        }
    }

    /// Quoted column names, their placeholders and parameters, numbered from `first`.
    /// - Throws: ``SourceRefusal`` for a value its column cannot hold.
    private func assignments(_ row: SourceRow, in table: TrackedTable, startingAt first: Int)
        throws -> ([String], [String], [Parameter]) {
        var columns: [String] = [], placeholders: [String] = [], parameters: [Parameter] = []
        for (name, value) in zip(row.columns, row.values) {
            let column = try self.column(name, of: table)
            let written: (sql: String, parameter: Parameter)
            do { written = try column.parameter(value, placeholder: first + parameters.count) } catch {
                throw SourceRefusal(message: "its value of \(name) cannot be stored in a \(column.typeName) column: \(error)")
            }
            columns.append(PostgreSQLQuoting.identifier(column.name))
            placeholders.append(written.sql)
            parameters.append(written.parameter)
        }
        return (columns, placeholders, parameters)
    }

    /// The server's refusal of a row in the seam's terms: a unique violation names its
    /// columns (read from the constraint's index, after the rollback made the transaction
    /// usable again).
    func refusal(_ error: PostgreSQLError, in table: TrackedTable) throws -> SourceRefusal {
        let message = error.diagnostics?.detail.map { "\(error.message) (\($0))" } ?? error.message
        guard error.isUniqueViolation, let constraint = error.constraintName else {
            if error.isInvalidText {
                return SourceRefusal(message: "its text cannot be stored in this database's encoding: \(message)")
            }
            return SourceRefusal(message: message)
        }
        let columns = try connection.query("""
            SELECT a.attname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
            JOIN pg_namespace n ON n.oid = i.relnamespace
            CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, position)
            JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
            WHERE i.relname = $1 AND n.nspname = $2 ORDER BY k.position
            """, [.text(constraint), .text(database.schema)]).compactMap { $0.string(0) }
        return SourceRefusal(uniqueColumns: columns.isEmpty ? nil : columns, message: message)
    }
}
