import CSQLite

/// One access SQLite asks about while it compiles a statement (`sqlite3_set_authorizer`).
public struct AuthorizerRequest: Sendable, Hashable {
    /// What the statement wants to do.
    public enum Action: Sendable, Hashable {
        /// Read one column of a table (also for `*` and for columns a WHERE uses).
        case read(table: String, column: String)
        /// A SELECT (once per SELECT, sub-selects included).
        case select
        /// Call an SQL function.
        case function(name: String)
        case insert(table: String)
        case update(table: String, column: String)
        case delete(table: String)
        case pragma(name: String, argument: String?)
        /// BEGIN, COMMIT or ROLLBACK.
        case transaction(operation: String)
        /// SAVEPOINT `BEGIN`, `RELEASE` or `ROLLBACK` of a named savepoint.
        case savepoint(operation: String, name: String)
        /// A recursive common table expression.
        case recursive
        case attach(file: String)
        case detach(database: String)
        /// Schema changes and the rest: SQLite's action code (`SQLITE_CREATE_TABLE` = 2, ...)
        /// and its two arguments.
        case other(code: Int32, String?, String?)
    }

    public var action: Action
    /// The database (`main`, `temp`, an attached name) the access is in, when it has one.
    public var database: String?
    /// The innermost trigger or view responsible for the access; nil for the statement's own SQL.
    public var accessor: String?

    public init(action: Action, database: String? = nil, accessor: String? = nil) {
        self.action = action
        self.database = database
        self.accessor = accessor
    }
}

/// An authorizer's answer.
public enum AuthorizerDecision: Sendable, Hashable {
    /// Go ahead.
    case allow
    /// Refuse: the statement fails to compile with `SQLITE_AUTH` ("not authorized").
    case deny
    /// Leave out quietly: a read gives NULL, a DELETE on a table... see SQLite's docs.
    case ignore
}

/// A Swift authorizer callback; called on the thread preparing a statement.
public typealias SQLiteAuthorizer = (AuthorizerRequest) -> AuthorizerDecision

/// Holds the authorizer's Swift closure; the connection keeps it alive while SQLite has its pointer.
final class AuthorizerBox {
    let body: SQLiteAuthorizer
    init(_ body: @escaping SQLiteAuthorizer) { self.body = body }
}

extension Connection {
    /// Installs a callback that approves or refuses each access of statements compiled from
    /// now on, or removes it with nil. Use it to run SQL from users (a `--where` filter) that
    /// may only read: allow `.select`, `.read` of the one table and known functions, deny the rest.
    ///
    /// An access naming anything that is not UTF-8 is denied without calling `authorizer`.
    ///
    /// Prepared statements keep what was decided when they were compiled (SQLite re-asks
    /// only when it recompiles them after a schema change).
    public func setAuthorizer(_ authorizer: SQLiteAuthorizer?) {
        guard let authorizer else {
            sqlite3_set_authorizer(handle, nil, nil)
            authorizerBox = nil
            return
        }
        let box = AuthorizerBox(authorizer)
        // Unretained: `authorizerBox` owns the object; SQLite gets the new pointer before the
        // old box is released.
        let userData = Unmanaged.passUnretained(box).toOpaque()
        sqlite3_set_authorizer(handle, { userData, code, first, second, database, accessor in
            guard let userData else { return SQLITE_DENY }
            let box = Unmanaged<AuthorizerBox>.fromOpaque(userData).takeUnretainedValue()
            // A name that is not UTF-8 is refused unasked: decoded with U+FFFD, "Do\xF1a" and
            // "Do\xF2a" would be one name, and allowing one table would allow the other.
            let given = [first, second, database, accessor]
            let names = given.map { $0.flatMap { String(validatingCString: $0) } }
            if zip(given, names).contains(where: { $0.0 != nil && $0.1 == nil }) { return SQLITE_DENY }
            let request = AuthorizerRequest(code: code, first: names[0], second: names[1],
                                            database: names[2], accessor: names[3])
            switch box.body(request) {
            case .allow: return SQLITE_OK
            case .deny: return SQLITE_DENY
            case .ignore: return SQLITE_IGNORE
            }
        }, userData)
        authorizerBox = box
    }
}

extension AuthorizerRequest {
    init(code: Int32, first: String?, second: String?, database: String?, accessor: String?) {
        let action: Action
        switch code {
        case SQLITE_READ: action = .read(table: first ?? "", column: second ?? "")
        case SQLITE_SELECT: action = .select
        case SQLITE_FUNCTION: action = .function(name: second ?? "")
        case SQLITE_INSERT: action = .insert(table: first ?? "")
        case SQLITE_UPDATE: action = .update(table: first ?? "", column: second ?? "")
        case SQLITE_DELETE: action = .delete(table: first ?? "")
        case SQLITE_PRAGMA: action = .pragma(name: first ?? "", argument: second)
        case SQLITE_TRANSACTION: action = .transaction(operation: first ?? "")
        case SQLITE_SAVEPOINT: action = .savepoint(operation: first ?? "", name: second ?? "")
        case SQLITE_RECURSIVE: action = .recursive
        case SQLITE_ATTACH: action = .attach(file: first ?? "")
        case SQLITE_DETACH: action = .detach(database: first ?? "")
        default: action = .other(code: code, first, second)
        }
        self.init(action: action, database: database, accessor: accessor)
    }
}
