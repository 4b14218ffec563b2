import Foundation

/// Where the server's data lives: `sqlite:PATH` (the default, `./whereabouts.sqlite`) or
/// `postgres://user:password@host:port/database?sslmode=…&pool_size=…&statement_timeout=…`, the host
/// a name, an address, or the directory of a Unix-domain socket (``PostgresSettings``).
public enum DatabaseURL: Sendable, Equatable {
    /// An SQLite file.
    case sqlite(path: String)
    /// A PostgreSQL server.
    case postgres(PostgresSettings)

    /// Parses the `--database` value.
    /// - Throws: ``ServerError`` naming the value, the problem and the accepted forms.
    public init(parsing text: String) throws {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw Self.invalid(text) }
            self = .sqlite(path: path)
            return
        }
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://"),
            let components = URLComponents(string: text), let host = components.host,
            !host.isEmpty || components.queryItems?.contains(where: { $0.name == "host" }) == true,
            let user = components.user, !user.isEmpty
        else { throw Self.invalid(text) }
        let database = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        self = .postgres(
            try PostgresSettings(
                host: host, port: components.port ?? 5432, user: user, password: components.password,
                database: database.isEmpty ? user : database, parameters: components.queryItems ?? []))
    }

    private static func invalid(_ text: String) -> ServerError {
        ServerError.usage(
            "--database \(PostgresSettings.redacted(text)) is not a database URL; use sqlite:PATH (e.g. sqlite:./whereabouts.sqlite) or postgres://user:password@host:5432/database (the host may be the directory of a Unix-domain socket: postgres://user@/database?host=/var/run/postgresql)"
        )
    }
}
