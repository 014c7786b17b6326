/// Where a PostgreSQL source is and how to log in, parsed by libpq itself (`PQconninfoParse`)
/// from a URI (`postgresql://user@host:5432/db?sslmode=require`), key=value text
/// (`host=db dbname=gis user=field`), or GDAL's form (`PG:host=db dbname=gis schemas=survey`).
///
/// The schema is GDAL's option, not libpq's (`schemas=` in key=value text or in the URI's query;
/// `active_schema=` as GDAL also accepts): it is kept apart and never reaches libpq.
///
/// Secrets (the options libpq marks as such: `password`, `sslpassword`) are kept for connecting
/// but never shown: not by ``description``, ``storedParameters``, `dump` or string interpolation.
/// What libpq finds by itself (`PGPASSWORD`, `~/.pgpass`, `PGSERVICE`) is left for it to find.
public struct ConnectionInfo: Sendable, Hashable {
    /// The libpq options given, by keyword, secrets excluded.
    public let parameters: [String: String]
    /// The secret options given (`password`, `sslpassword`), by keyword.
    let secrets: [String: String]
    /// The schemas named by `schemas=` (GDAL's comma-separated list) or `active_schema=`,
    /// the active one first; empty when none was named.
    public let schemas: [String]

    init(parameters: [String: String], secrets: [String: String], schemas: [String]) {
        (self.parameters, self.secrets, self.schemas) = (parameters, secrets, schemas)
    }

    public var host: String? { parameters["host"] ?? parameters["hostaddr"] }
    public var port: String? { parameters["port"] }
    public var dbname: String? { parameters["dbname"] }
    public var user: String? { parameters["user"] }
    public var sslmode: String? { parameters["sslmode"] }
    public var service: String? { parameters["service"] }
    /// The schema the source's tables are in: the first named, or `public`.
    public var schema: String { schemas.first ?? "public" }
    /// Whether a password was given in the text itself (rather than left to libpq to find).
    public var hasPassword: Bool { secrets["password"] != nil }

    /// The keywords whose values are kept for storage, in the order they are written.
    static let storedKeywords = ["host", "hostaddr", "port", "dbname", "user", "sslmode", "service"]

    /// What a package may keep to find the source again: host, port, dbname, user, sslmode and
    /// service as given, and the schema. Never a password: libpq finds that again at sync.
    public var storedParameters: [String: String] {
        var stored = parameters.filter { Self.storedKeywords.contains($0.key) }
        stored["schema"] = schema
        return stored
    }

    /// The same connection without its secrets, to connect again where libpq finds the password.
    public var withoutSecrets: ConnectionInfo {
        ConnectionInfo(parameters: parameters, secrets: [:], schemas: schemas)
    }

    /// The text libpq connects with: every option, secrets included, quoted libpq's way.
    var libpqConninfo: String {
        ConninfoText.render(parameters.merging(secrets) { $1 })
    }

    /// The secret values, for clearing libpq's words of them.
    var secretValues: [String] { Array(secrets.values) }
}

extension ConnectionInfo: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The stored parameters as key=value text (`host=db port=5432 dbname=gis schema=public`),
    /// safe in any message, log or file.
    public var description: String {
        let stored = storedParameters
        let order = Self.storedKeywords + ["schema"]
        return order.compactMap { key in stored[key].map { "\(key)=\(ConninfoText.quoteIfNeeded($0))" } }
            .joined(separator: " ")
    }

    public var debugDescription: String { "ConnectionInfo(\(description))" }

    /// `dump` and the debugger show the parameters and schemas, never the secrets.
    public var customMirror: Mirror {
        Mirror(self, children: ["parameters": parameters, "schemas": schemas, "hasPassword": hasPassword])
    }
}
