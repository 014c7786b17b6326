import Foundation

/// The throwaway PostgreSQL + PostGIS cluster `make test` starts (scripts/with-pg-test-cluster),
/// as its environment describes it:
///   PKGBUILD_TEST_PG           libpq conninfo of database pkgbuild_test as superuser postgres
///   PKGBUILD_TEST_PG_PASSWORD  the password of role pkgbuild_pw, which must log in with it
/// Without them the PostgreSQL tests are skipped, and under CI=true they fail instead.
public enum PostgreSQLTestServer {
    public static let variable = "PKGBUILD_TEST_PG"
    public static let passwordVariable = "PKGBUILD_TEST_PG_PASSWORD"
    /// The role that logs in with a password over TCP (trust for every other role).
    public static let passwordRole = "pkgbuild_pw"

    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The superuser conninfo, or nil when no cluster was started.
    public static var conninfo: String? {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static var password: String? {
        environment[passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static var isAvailable: Bool { conninfo != nil && password != nil }

    public static var isCI: Bool { environment["CI"] == "true" }

    /// Why the PostgreSQL tests did not run: shown beside each skipped test.
    public static let unavailableNote =
        "\(variable) is not set: run `make test`, which starts a throwaway PostgreSQL cluster, " +
        "or scripts/with-pg-test-cluster swift test --skip-build --filter PostgreSQL"

    /// The superuser conninfo, for tests that run only when ``isAvailable``.
    public static var superuser: String { conninfo ?? "" }

    /// The conninfo logging in as the password role with `password` (libpq takes the last
    /// value of a repeated keyword).
    public static func passwordRoleConninfo(password: String) -> String {
        "\(superuser) user=\(passwordRole) password='\(password)'"
    }

    /// The port the cluster listens on.
    public static var port: Int? {
        superuser.split(separator: " ").first { $0.hasPrefix("port=") }.flatMap { Int($0.dropFirst(5)) }
    }

    /// A table or schema name no other test uses, for tests that share the database.
    public static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
    }

    /// A TCP port on 127.0.0.1 where nothing listens (bound, then released).
    public static func closedPort() -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
