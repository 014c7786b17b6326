/// SQLite: connection, statement, transaction, functions (a thin wrapper over sqlite3).
import CSQLite
