import Foundation
import NIOCore

/// How the server reaches PostgreSQL: the address and credentials of a `postgres://` URL and the
/// settings of its query string.
///
/// A PostgreSQL on the same machine is reached through its Unix-domain socket when the host is a
/// directory, as libpq takes it: percent-encoded in the URL (`postgres://me@%2Fvar%2Frun%2Fpostgresql/db`)
/// or as the `host` parameter (`postgres://me@/db?host=/var/run/postgresql`). The socket is that
/// directory's `.s.PGSQL.` and the port; the server then logs in as `user` the way the socket allows
/// (Debian's default, `peer`, wants the operating-system user of that name).
///
/// | parameter | values | default |
/// |---|---|---|
/// | `host` | the directory of the server's Unix-domain socket (a path starting with `/`), instead of the URL's host | the URL's host |
/// | `sslmode` | `disable`, `require` (encrypted, the certificate not checked), `verify-full` (encrypted, the certificate checked against `sslrootcert` or the system's trusted authorities, and the host name against the certificate) | `disable` |
/// | `sslrootcert` | the path of a PEM file of trusted authorities, with `verify-full` | the system's |
/// | `pool_size` | connections the pool opens at most, 1 to 1000 | 20 |
/// | `statement_timeout` | milliseconds a statement may run before PostgreSQL cancels it (`30000`, `30s`, `500ms`); 0 for none | none |
public struct PostgresSettings: Sendable, Equatable {
    /// How the connection is encrypted.
    public enum TLSMode: Sendable, Equatable {
        /// Plain TCP.
        case disable
        /// TLS without checking the server's certificate: protects from eavesdroppers, not from a
        /// server that pretends.
        case require
        /// TLS with the certificate checked against `rootCertificate` (a PEM file) or the system's
        /// trusted authorities, and the host name against the certificate.
        case verifyFull(rootCertificate: String?)
    }

    /// The server's host name or address, or the directory of its Unix-domain socket (a path
    /// starting with `/`, see ``socketPath``).
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// The role to log in as.
    public var user: String
    /// The role's password, if it has one.
    public var password: String?
    /// The database name.
    public var database: String
    /// How the connection is encrypted.
    public var tls: TLSMode = .disable
    /// Connections the pool opens at most.
    public var poolSize = 20
    /// Milliseconds a statement may run before PostgreSQL cancels it; `nil` for PostgreSQL's own setting.
    public var statementTimeoutMilliseconds: Int?

    /// The query parameters the URL may carry.
    public static let parameterNames = ["host", "sslmode", "sslrootcert", "pool_size", "statement_timeout"]

    /// The path of the Unix-domain socket when ``host`` is a directory (libpq's convention), else `nil`.
    public var socketPath: String? {
        guard host.hasPrefix("/") else { return nil }
        return (host.hasSuffix("/") ? host : host + "/") + ".s.PGSQL.\(port)"
    }

    /// Where the server is, for messages: `host:port`, or the socket's path.
    public var endpoint: String { socketPath.map { "the socket \($0)" } ?? "\(host):\(port)" }

    /// Settings for a server, with the defaults of the table above.
    public init(host: String, port: Int = 5432, user: String, password: String? = nil, database: String) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// Settings with the URL's query `parameters` applied.
    /// - Throws: ``ServerError/usage(_:)`` naming the parameter, its value and what it accepts.
    init(host: String, port: Int, user: String, password: String?, database: String, parameters: [URLQueryItem]) throws {
        self.init(host: host, port: port, user: user, password: password, database: database)
        var values: [String: String] = [:]
        for item in parameters {
            guard Self.parameterNames.contains(item.name) else {
                throw ServerError.usage(
                    "--database: the parameter \(String(reflecting: String(item.name.prefix(40)))) is unknown; use \(Self.parameterNames.joined(separator: ", "))"
                )
            }
            guard values[item.name] == nil else { throw ServerError.usage("--database: \(item.name) is given twice; give it once") }
            values[item.name] = item.value ?? ""
        }
        if let directory = values["host"] {
            guard directory.hasPrefix("/") else {
                throw ServerError.usage(
                    "--database: host=\(directory.prefix(80)) is not a directory; the host parameter names the directory of a Unix-domain socket (e.g. host=/var/run/postgresql), a host name goes after the @"
                )
            }
            self.host = directory
        }
        let root = values["sslrootcert"]
        switch values["sslmode"] ?? "disable" {
        case "disable", "require":
            tls = values["sslmode"] == "require" ? .require : .disable
            if tls == .require, socketPath != nil { throw Self.noTLSOverSocket("require") }
            if root != nil {
                throw ServerError.usage(
                    "--database: sslrootcert is used only with sslmode=verify-full; add sslmode=verify-full or drop sslrootcert")
            }
        case "verify-full":
            guard socketPath == nil else { throw Self.noTLSOverSocket("verify-full") }
            if let root {
                guard FileManager.default.isReadableFile(atPath: root) else {
                    throw ServerError.usage(
                        "--database: sslrootcert \(root) is not a readable file; give the path of the PEM file of the authority that signed the server's certificate"
                    )
                }
            }
            guard (try? SocketAddress(ipAddress: host, port: port)) == nil else {
                throw ServerError.usage(
                    "--database: sslmode=verify-full checks the host name against the server's certificate, and \(host) is an address; give the name the certificate was made for"
                )
            }
            tls = .verifyFull(rootCertificate: root)
        case let other:
            throw ServerError.usage(
                "--database: sslmode=\(other.prefix(40)) is not supported; use disable, require (encrypted, certificate not checked) or verify-full (certificate and host checked)"
            )
        }
        if let text = values["pool_size"] {
            guard let size = Int(text), (1...1000).contains(size) else {
                throw ServerError.usage("--database: pool_size=\(text.prefix(40)) is not a whole number from 1 to 1000 (connections)")
            }
            poolSize = size
        }
        if let text = values["statement_timeout"] {
            guard let milliseconds = Self.milliseconds(text) else {
                throw ServerError.usage(
                    "--database: statement_timeout=\(text.prefix(40)) is not a duration; give milliseconds (30000) or a number with ms or s (500ms, 30s), 0 for none"
                )
            }
            statementTimeoutMilliseconds = milliseconds
        }
    }

    /// The error for a TLS mode asked of a Unix-domain socket, which carries no TLS.
    private static func noTLSOverSocket(_ mode: String) -> ServerError {
        ServerError.usage(
            "--database: sslmode=\(mode) encrypts a TCP connection, and the host is a Unix-domain socket's directory, which never leaves the machine; drop sslmode, or give a host name to connect over TCP"
        )
    }

    /// `30000`, `500ms` or `30s` as whole milliseconds up to a day.
    private static func milliseconds(_ text: String) -> Int? {
        let (number, scale): (Substring, Double) =
            text.hasSuffix("ms") ? (text.dropLast(2), 1) : text.hasSuffix("s") ? (text.dropLast(), 1000) : (Substring(text), 1)
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 86_400_000 else { return nil }
        return Int((value * scale).rounded())
    }

    /// `text` with the password of a `postgres://` URL replaced by `***`, for messages and logs.
    public static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}
