import Diagnostics

/// The PostgreSQL module's one error type: what the server (or libpq) refused, in words a person
/// can act on, with the SQLSTATE and the names the server gives (constraint, table, column).
///
/// A message never holds a password: the connection is named by its non-secret parameters
/// (``ConnectionInfo/description``) and libpq's words are cleared of the password it was given.
public typealias PostgreSQLError = KindedError<PostgreSQLErrorKind>

/// The kinds of ``PostgreSQLError``.
public enum PostgreSQLErrorKind: Sendable, Hashable {
    /// The connection string is neither a libpq URI nor key=value text libpq accepts.
    case invalidConnectionInfo
    /// No server answered: connection refused, no such host, a socket that is not there, a
    /// timeout. Retrying later may succeed.
    case unreachable
    /// A server answered and refused the login. The SQLSTATE when the words say which refusal
    /// it was (libpq hands no code for these): 28P01 wrong or missing password, 28000 no
    /// pg_hba.conf entry, 3D000 no such database, 53300 too many connections.
    case loginRefused(sqlState: String?)
    /// The server refused a statement.
    case server(ServerDiagnostics)
    /// The connection broke during a call (the server stopped, the network went away).
    case connectionLost
    /// A parameter the wrapper refuses before sending it (text holding a NUL character).
    case invalidParameter
    /// A value that is not what the caller asked it as (`int` of a text that is no integer).
    case unexpectedValue
}

/// What the server says about a statement it refused (libpq's `PQresultErrorField`).
public struct ServerDiagnostics: Sendable, Hashable {
    /// The five-character SQLSTATE (`23505`): see ``SQLState``.
    public var sqlState: String
    public var schema: String?
    public var table: String?
    public var column: String?
    /// The constraint that refused the row (unique, check, foreign key, exclusion).
    public var constraint: String?
    /// The server's DETAIL (`Key (id)=(1) already exists.`).
    public var detail: String?
    public var hint: String?

    public init(sqlState: String, schema: String? = nil, table: String? = nil, column: String? = nil,
                constraint: String? = nil, detail: String? = nil, hint: String? = nil) {
        (self.sqlState, self.schema, self.table, self.column, self.constraint, self.detail, self.hint)
            = (sqlState, schema, table, column, constraint, detail, hint)
    }
}

/// The SQLSTATE codes callers act on (PostgreSQL's Appendix A).
public enum SQLState {
    public static let serializationFailure = "40001"
    public static let deadlockDetected = "40P01"
    public static let uniqueViolation = "23505"
    public static let notNullViolation = "23502"
    public static let checkViolation = "23514"
    public static let foreignKeyViolation = "23503"
    public static let undefinedTable = "42P01"
    public static let insufficientPrivilege = "42501"
    public static let invalidPassword = "28P01"
    public static let invalidAuthorization = "28000"
    public static let invalidCatalogName = "3D000"
    public static let tooManyConnections = "53300"
    /// Bytes that are not valid in the database's encoding (Latin-1 bytes into UTF8).
    public static let characterNotInRepertoire = "22021"
    public static let queryCanceled = "57014"
}

extension KindedError where K == PostgreSQLErrorKind {
    /// The server's SQLSTATE for a refused statement or login, when known.
    public var sqlState: String? {
        switch kind {
        case .server(let diagnostics): diagnostics.sqlState
        case .loginRefused(let state): state
        default: nil
        }
    }

    /// What the server said about a refused statement; nil for every other kind.
    public var diagnostics: ServerDiagnostics? {
        if case .server(let diagnostics) = kind { return diagnostics }
        return nil
    }

    /// The constraint the server names in a refusal (unique, check, foreign key).
    public var constraintName: String? { diagnostics?.constraint }

    /// Two SERIALIZABLE or REPEATABLE READ transactions could not both commit: run it again.
    public var isSerializationFailure: Bool { sqlState == SQLState.serializationFailure }
    /// The server broke a lock cycle by aborting this transaction: run it again.
    public var isDeadlock: Bool { sqlState == SQLState.deadlockDetected }
    /// A serialization failure or a deadlock: the whole transaction may succeed when rerun.
    public var isRetryable: Bool { isSerializationFailure || isDeadlock }
    public var isUniqueViolation: Bool { sqlState == SQLState.uniqueViolation }
    public var isNotNullViolation: Bool { sqlState == SQLState.notNullViolation }
    public var isCheckViolation: Bool { sqlState == SQLState.checkViolation }
    public var isForeignKeyViolation: Bool { sqlState == SQLState.foreignKeyViolation }
    /// Any class-23 refusal: the row's values broke a constraint.
    public var isIntegrityConstraintViolation: Bool { sqlState?.hasPrefix("23") == true }
    public var isUndefinedTable: Bool { sqlState == SQLState.undefinedTable }
    public var isInsufficientPrivilege: Bool { sqlState == SQLState.insufficientPrivilege }
    /// The login was refused for its password: a wrong one, or none where one is needed.
    public var isInvalidPassword: Bool { sqlState == SQLState.invalidPassword }
    /// Text the database cannot store in its encoding (22021), or text holding a NUL character
    /// the wrapper refused to send.
    public var isInvalidText: Bool { sqlState == SQLState.characterNotInRepertoire || kind == .invalidParameter }
    public var isUnreachable: Bool { kind == .unreachable }
    public var isConnectionLost: Bool { kind == .connectionLost }
}
