import CLibPQ
import Foundation

/// A connection to one PostgreSQL database (`PGconn *`), closed when the value is released.
///
/// - Important: A connection has one owner at a time: it is not `Sendable` and must not be
///   used from two threads at once. Parallel work opens its own connections.
public final class Connection {
    /// The C handle; owned by this object and closed with `PQfinish` in `deinit`.
    let handle: OpaquePointer
    /// Where the connection goes, without its secrets in any description.
    public let info: ConnectionInfo
    /// Depth of `withSavepoint` nesting, to name savepoints uniquely.
    var savepointDepth = 0
    /// Cursors declared so far, to name each uniquely.
    var cursorCount = 0

    /// Options set unless the caller set them: text in UTF-8 whatever the database's encoding
    /// (the server converts, and refuses what it cannot), and a bounded wait for the server.
    static let defaultOptions = ["client_encoding": "UTF8", "connect_timeout": "10"]

    /// Connects (`PQconnectdb`). libpq finds what the text leaves out as `psql` does
    /// (`PGPASSWORD`, `~/.pgpass`, `PGSERVICE`, `PGHOST`...).
    /// - Throws: ``PostgreSQLError`` naming the connection by its non-secret parameters:
    ///   `.unreachable` when no server answered, `.loginRefused` when one refused the login.
    public init(_ info: ConnectionInfo) throws {
        let withDefaults = ConnectionInfo(parameters: info.parameters.merging(Self.defaultOptions) { given, _ in given },
                                          secrets: info.secrets, schemas: info.schemas)
        // Returns NULL only when out of memory; a failed connection is a handle to PQfinish.
        guard let connection = PQconnectdb(withDefaults.libpqConninfo) else {
            throw PostgreSQLError(.unreachable, "cannot connect to PostgreSQL (\(info)): out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let error = Self.connectionError(connection, info: info)
            PQfinish(connection)
            throw error
        }
        handle = connection
        self.info = info
        // libpq prints NOTICEs (`table does not exist, skipping`) on stderr by default.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    /// Parses `text` (URI, key=value or `PG:` form) and connects.
    public convenience init(_ text: String) throws {
        try self.init(ConnectionInfo(text))
    }

    deinit { PQfinish(handle) }

    /// The server's version as a number (150004 for 15.4).
    public var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// The process ID of the server process serving this connection (`pg_backend_pid()`).
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// Whether a transaction is open (or failed and not yet rolled back).
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// libpq's last message for this connection, cleared of the secrets it was given.
    var lastMessage: String {
        Self.redacting(String(cString: PQerrorMessage(handle)), secrets: Self.secrets(of: handle, info: info))
    }
}

extension Connection {
    /// A failed login as an error: who refused what, never the password.
    static func connectionError(_ connection: OpaquePointer, info: ConnectionInfo) -> PostgreSQLError {
        let words = redacting(String(cString: PQerrorMessage(connection)), secrets: secrets(of: connection, info: info))
        let kind = loginKind(words, needsPassword: PQconnectionNeedsPassword(connection) == 1,
                             usedPassword: PQconnectionUsedPassword(connection) == 1)
        return PostgreSQLError(kind, "cannot connect to PostgreSQL (\(info)): \(words)")
    }

    /// Which refusal libpq's words describe. libpq hands no SQLSTATE for a failed login, so the
    /// server's FATAL words (in English, lc_messages C) tell them apart; no FATAL at all means
    /// no server answered.
    static func loginKind(_ words: String, needsPassword: Bool, usedPassword: Bool) -> PostgreSQLErrorKind {
        if needsPassword || words.contains("password authentication failed") {
            return .loginRefused(sqlState: SQLState.invalidPassword)
        }
        if words.contains("no pg_hba.conf entry") { return .loginRefused(sqlState: SQLState.invalidAuthorization) }
        if words.contains("database \"") && words.contains("does not exist") {
            return .loginRefused(sqlState: SQLState.invalidCatalogName)
        }
        if words.contains("too many clients") { return .loginRefused(sqlState: SQLState.tooManyConnections) }
        if words.contains("FATAL") || usedPassword { return .loginRefused(sqlState: nil) }
        return .unreachable
    }

    /// Every secret libpq may quote: those given, and the password libpq found itself
    /// (`PGPASSWORD`, `~/.pgpass`), which `PQpass` reports.
    static func secrets(of connection: OpaquePointer, info: ConnectionInfo) -> [String] {
        var secrets = info.secretValues
        if let found = PQpass(connection) { secrets.append(String(cString: found)) }
        return secrets
    }

    /// `text` with each secret of 4 characters or more replaced by `***`. Shorter ones cannot
    /// be told from ordinary words, so replacing them would garble the message.
    static func redacting(_ text: String, secrets: [String]) -> String {
        var result = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for secret in secrets where secret.count >= 4 {
            result = result.replacingOccurrences(of: secret, with: "***")
        }
        return result
    }
}
