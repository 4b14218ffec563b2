import Foundation
import Logging
import NIOSSL
import PostgresNIO

extension PostgresSettings {
    /// The PostgresNIO pool configuration: TLS as `sslmode` says, the pool size, and the statement
    /// timeout as a startup parameter, so it holds for every connection.
    /// - Throws: ``ServerError/usage(_:)`` when `sslrootcert` holds no PEM certificate.
    func clientConfiguration() throws -> PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS = try tlsConfiguration().map { .require($0) } ?? .disable
        var configuration =
            socketPath.map { PostgresClient.Configuration(unixSocketPath: $0, username: user, password: password, database: database) }
            ?? PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: mode)
        configuration.options.maximumConnections = poolSize
        if let statementTimeoutMilliseconds {
            configuration.options.additionalStartupParameters = [("statement_timeout", String(statementTimeoutMilliseconds))]
        }
        return configuration
    }

    /// Opens one connection and closes it again. The pool retries a server it cannot reach without
    /// end, so without this check a wrong host, port, password or `sslmode` would be a silent wait.
    /// - Throws: ``ServerError/usage(_:)`` naming the server, what went wrong and what to check.
    func checkConnection(logger: Logger) async throws {
        let mode: PostgresConnection.Configuration.TLS =
            try tlsConfiguration().map { .require(try NIOSSLContext(configuration: $0)) } ?? .disable
        var configuration =
            socketPath.map { PostgresConnection.Configuration(unixSocketPath: $0, username: user, password: password, database: database) }
            ?? PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: mode)
        configuration.options.connectTimeout = .seconds(10)
        do {
            try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger).close()
        } catch {
            throw ServerError.usage(
                "--database: PostgreSQL at \(endpoint), database \(database), could not be used: \(Self.reason(error)); check that it runs there, "
                    + "the user and password, and sslmode (the server may require TLS, or its certificate may not match sslrootcert and the host name)"
            )
        }
    }

    /// What a failed connection attempt says, without the query text PostgresNIO hides by default.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return "the server said \(message)" }
        return error.underlying.map { "\($0)" } ?? "\(error.code)"
    }

    /// The TLS configuration `sslmode` asks for; `nil` for none.
    /// - Throws: ``ServerError/usage(_:)`` when `sslrootcert` holds no PEM certificate.
    private func tlsConfiguration() throws -> TLSConfiguration? {
        switch tls {
        case .disable:
            return nil
        case .require:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            return configuration
        case .verifyFull(let root):
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .fullVerification
            if let root {
                do {
                    configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(root))
                } catch {
                    throw ServerError.usage(
                        "--database: sslrootcert \(root) holds no PEM certificate (\(error)); give the authority's certificate in PEM form")
                }
            }
            return configuration
        }
    }
}
