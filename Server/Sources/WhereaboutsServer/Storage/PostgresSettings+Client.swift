import Foundation
import NIOSSL
import PostgresNIO

extension PostgresSettings {
    /// The PostgresNIO pool configuration: TLS as `sslmode` says, the pool size, and the statement
    /// timeout as a startup parameter, so it holds for every connection.
    /// - Throws: ``ServerError/usage(_:)`` when `sslrootcert` holds no PEM certificate.
    func clientConfiguration() throws -> PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS
        switch tls {
        case .disable:
            mode = .disable
        case .require:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            mode = .require(configuration)
        case .verifyFull(let root):
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .fullVerification
            if let root {
                do {
                    configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(root))
                } catch {
                    throw ServerError.usage("--database: sslrootcert \(root) holds no PEM certificate (\(error)); give the authority's certificate in PEM form")
                }
            }
            mode = .require(configuration)
        }
        var configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: mode)
        configuration.options.maximumConnections = poolSize
        if let statementTimeoutMilliseconds {
            configuration.options.additionalStartupParameters = [("statement_timeout", String(statementTimeoutMilliseconds))]
        }
        return configuration
    }
}
