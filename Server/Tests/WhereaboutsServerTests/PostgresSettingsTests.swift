import Foundation
import PostgresNIO
import Testing
import WhereaboutsServer

/// `sslmode`, the pool size and the statement timeout of the database URL, against a real PostgreSQL
/// that accepts TLS connections only, under a certificate the test makes.
@Suite("PostgreSQL connection settings")
struct PostgresSettingsTests {
    /// Runs `query`'s first column as `T` on a pool opened from `url`.
    private func first<T: PostgresDecodable & Sendable>(_ url: String, _ query: PostgresQuery, as: T.Type) async throws -> T? {
        try await ServerApp.withStorage(try DatabaseURL(parsing: url), logger: quietLogger) { storage in
            for try await value in try await (storage as! PostgresTrackStorage).client.query(query, logger: quietLogger).decode(T.self) {
                return value
            }
            return nil
        }
    }

    /// `encrypted` or `plain` for a connection opened from `url`, or `refused: ` and the error that
    /// stopped it within 20 s.
    private func connection(_ url: String) async -> String {
        do {
            let answer = try await withThrowingTaskGroup(of: Bool?.self) { group in
                group.addTask { try await first(url, "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", as: Bool.self) }
                group.addTask {
                    try await Task.sleep(nanoseconds: 20_000_000_000)
                    throw CancellationError()
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
            return answer == true ? "encrypted" : "plain"
        } catch {
            return "refused: \(String(reflecting: error).prefix(300))"
        }
    }

    @Test(
        "TLS: require and verify-full connect encrypted; no TLS, an unknown authority or a wrong host name get no connection",
        .enabled(if: TLSPostgres.installed != nil, "\(TLSPostgres.missing)"))
    func tls() async throws {
        try await withTLSPostgres { cluster in
            let authority = "sslrootcert=\(cluster.authority)"
            #expect(await connection(cluster.url("sslmode=require")) == "encrypted")
            #expect(await connection(cluster.url("sslmode=verify-full&\(authority)")) == "encrypted")
            let plain = await connection(cluster.url("sslmode=disable"))
            #expect(
                plain.contains("PostgreSQL at localhost:\(cluster.port), database postgres, could not be used: the server said")
                    && plain.contains("sslmode"), "\(plain)")
            #expect(
                await connection(cluster.url("sslmode=verify-full")).hasPrefix("refused"), "the system does not trust the test's authority")
            #expect(
                await connection(cluster.url(host: "127.0.0.1", "sslmode=verify-full&\(authority)")).contains("127.0.0.1 is an address"),
                "verify-full needs a name to check the certificate against")
        }
    }

    @Test(
        "pool_size bounds the connections in use; statement_timeout cancels a statement that runs longer",
        .enabled(if: TLSPostgres.installed != nil, "\(TLSPostgres.missing)"))
    func poolAndTimeout() async throws {
        try await withTLSPostgres { cluster in
            let url = cluster.url("sslmode=require&pool_size=2&statement_timeout=300ms")
            #expect(try await first(url, "SHOW statement_timeout", as: String.self) == "300ms")
            let error = await #expect(throws: PSQLError.self) { _ = try await first(url, "SELECT pg_sleep(2)::text", as: String.self) }
            #expect(error?.serverInfo?[.sqlState] == "57014", "query_canceled")
            try await ServerApp.withStorage(try DatabaseURL(parsing: url), logger: quietLogger) { storage in
                let client = (storage as! PostgresTrackStorage).client
                let start = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 { group.addTask { try await client.query("SELECT pg_sleep(0.2)", logger: quietLogger) } }
                    try await group.waitForAll()
                }
                #expect(ContinuousClock.now - start >= .milliseconds(400), "4 statements of 0.2 s on 2 connections take two rounds")
            }
        }
    }

    @Test(
        "database URLs with unusable settings are refused, naming the setting, the value and what it takes, never the password",
        arguments: [
            ("?sslmode=prefer", "sslmode=prefer is not supported; use disable, require"),
            ("?pool_size=0", "pool_size=0 is not a whole number from 1 to 1000"),
            ("?statement_timeout=soon", "statement_timeout=soon is not a duration; give milliseconds"),
            ("?sslrootcert=/etc/hostname", "sslrootcert is used only with sslmode=verify-full"),
            ("?sslmode=verify-full&sslrootcert=/nonexistent.pem", "sslrootcert /nonexistent.pem is not a readable file"),
            ("?sslmode=require&sslmode=disable", "sslmode is given twice"),
            (
                "?connect_timeout=5",
                #"the parameter "connect_timeout" is unknown; use host, sslmode, sslrootcert, pool_size, statement_timeout"#
            ),
            ("?host=db.example", "host=db.example is not a directory; the host parameter names the directory of a Unix-domain socket"),
            (
                "?host=/run/postgresql&sslmode=require",
                "sslmode=require encrypts a TCP connection, and the host is a Unix-domain socket's directory"
            ),
            ("?host=/run/postgresql&sslmode=verify-full", "sslmode=verify-full encrypts a TCP connection"),
        ])
    func refusedSettings(query: String, words: String) throws {
        let error = #expect(throws: ServerError.self) { try DatabaseURL(parsing: "postgres://u:hunter2@db.example:5432/w" + query) }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains(words), "\(message)")
        #expect(!message.contains("hunter2"))
    }

    @Test(
        "a directory as the host is a Unix-domain socket, percent-encoded or as the host parameter; a name or address is TCP",
        arguments: [
            ("postgres://me@%2Fvar%2Frun%2Fpostgresql/w", "/var/run/postgresql/.s.PGSQL.5432"),
            ("postgres://me@%2Ftmp%2Fpg%2F:6000/w", "/tmp/pg/.s.PGSQL.6000"),
            ("postgres://me@/w?host=/var/run/postgresql", "/var/run/postgresql/.s.PGSQL.5432"),
            ("postgres://me@db.example/w?host=/tmp/pg", "/tmp/pg/.s.PGSQL.5432"),
            ("postgres://me@db.example:6000/w", nil),
            ("postgres://me@127.0.0.1/w", nil),
        ])
    func socketHosts(url: String, socket: String?) throws {
        guard case .postgres(let settings) = try DatabaseURL(parsing: url) else {
            Issue.record("\(url) is not a PostgreSQL URL")
            return
        }
        #expect(settings.socketPath == socket)
    }

    @Test("a socket where no PostgreSQL listens is named in the refusal")
    func missingSocket() async {
        let error = await #expect(throws: ServerError.self) {
            try await ServerApp.withStorage(try DatabaseURL(parsing: "postgres://me@%2Fnonexistent/w"), logger: quietLogger) { _ in }
        }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("PostgreSQL at the socket /nonexistent/.s.PGSQL.5432, database w, could not be used"), "\(message)")
    }

    @Test(
        "the test PostgreSQL reached through its Unix-domain socket: the pool connects and migrates, on a connection without a server address",
        .enabled(
            if: ProcessInfo.processInfo.environment["WHEREABOUTS_TEST_POSTGRES_SOCKET"] != nil,
            "WHEREABOUTS_TEST_POSTGRES_SOCKET is not set (.ci/run sets it to the test cluster's socket URL): the socket connection is not checked"
        ))
    func socketConnection() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["WHEREABOUTS_TEST_POSTGRES_SOCKET"])
        #expect(
            try await first(url, "SELECT inet_server_addr() IS NULL", as: Bool.self) == true, "a socket connection has no server address")
    }

    @Test("a URL that is no database URL is named with its password hidden")
    func passwordHidden() {
        let error = #expect(throws: ServerError.self) { try DatabaseURL(parsing: "postgres://u:hunter2@/w") }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("postgres://u:***@/w") && !message.contains("hunter2"), "\(message)")
    }
}
