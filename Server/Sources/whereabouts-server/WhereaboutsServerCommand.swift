import ArgumentParser
import Foundation
import Logging
import WhereaboutsServer

/// `whereabouts-server`: ingest, deduplicate, store and serve device tracks.
@main
struct WhereaboutsServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whereabouts-server", abstract: "Ingest, deduplicate, store and serve device tracks.",
        subcommands: [Serve.self, DeviceCommand.self, Bench.self])
}

/// Flags shared by every subcommand; each falls back to an environment variable.
struct DatabaseOption: ParsableArguments {
    @Option(help: "sqlite:PATH or postgres://user:password@host:port/database (env WHEREABOUTS_DATABASE).")
    var database: String?

    func url() throws -> DatabaseURL {
        let text = database ?? ProcessInfo.processInfo.environment["WHEREABOUTS_DATABASE"] ?? "sqlite:./whereabouts.sqlite"
        do { return try DatabaseURL(parsing: text) } catch { throw ValidationError("\(error)") }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the HTTP API until SIGTERM or SIGINT.")

    @Option(help: "Address to listen on (env WHEREABOUTS_HOST).")
    var host: String?

    @Option(help: "Port; 0 picks a free one (env WHEREABOUTS_PORT).")
    var port: Int?

    @OptionGroup var database: DatabaseOption

    @Option(help: "The admin token, which reads every device and queues commands (env WHEREABOUTS_ADMIN_TOKEN).")
    var adminToken: String?

    @Option(help: "Requests per second per device; 0 turns the limit off (env WHEREABOUTS_RATE_LIMIT).")
    var rateLimit: Double?

    @Option(help: "Largest request body in bytes.")
    var maxBodyBytes: Int = 1 << 20

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let host = host ?? environment["WHEREABOUTS_HOST"] ?? "127.0.0.1"
        guard let port = port ?? Int(environment["WHEREABOUTS_PORT"] ?? "8080"), (0...65535).contains(port) else {
            throw ValidationError("--port must be 0...65535")
        }
        let rate = rateLimit ?? Double(environment["WHEREABOUTS_RATE_LIMIT"] ?? "50") ?? 50
        guard rate.isFinite, rate >= 0 else { throw ValidationError("--rate-limit must be a non-negative number") }
        let settings = ServerSettings(
            maxBodyBytes: maxBodyBytes, rateLimit: rate, rateBurst: max(1, rate * 2),
            adminToken: adminToken ?? environment["WHEREABOUTS_ADMIN_TOKEN"])
        var logger = Logger(label: "whereabouts-server")
        logger.logLevel = .info
        let url = try database.url()
        try await ServerApp.withStorage(url, logger: logger) { [logger] storage in
            try await ServerApp.serve(storage: storage, host: host, port: port, settings: settings, logger: logger) { bound in
                FileHandle.standardOutput.write(Data("whereabouts-server listening on http://\(host):\(bound) with \(storage.kind) storage\n".utf8))
            }
        }
        logger.info("stopped")
    }
}

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "device", abstract: "Manage devices.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a device and print its token once, as the last line. Only the token's SHA-256 is stored.")

        @Argument(help: "The device id: 1 to 64 letters, digits, '.', '_' or '-', and not . or ..")
        var name: String

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            if let problem = DeviceID.problem(with: name) {
                throw ValidationError(DeviceID.message(for: name, problem: problem))
            }
            let token = Tokens.generate()
            let name = name
            var logger = Logger(label: "whereabouts-server")
            logger.logLevel = .warning
            do {
                try await ServerApp.withStorage(try database.url(), logger: logger) { storage in
                    try await storage.addDevice(id: name, tokenHash: Tokens.hash(token), at: Date())
                }
            } catch let error as ServerError {
                throw ValidationError("\(error)")
            }
            print("device \(name) added; its token is shown only now:")
            print(token)
        }
    }
}
