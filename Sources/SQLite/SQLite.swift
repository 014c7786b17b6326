/// SQLite: connection, statement, transaction, functions (a thin wrapper over sqlite3).
///
/// The module is the only one that imports `CSQLite`; no C type appears in its public API.
/// Its parts: ``Connection`` (open, execute, query, transactions, functions, authorizer),
/// ``Statement`` (prepare, bind, step, typed columns), ``SQLiteValue`` (the five storage
/// classes as a `Sendable` value) and ``SQLiteError`` (the module's one error type).
