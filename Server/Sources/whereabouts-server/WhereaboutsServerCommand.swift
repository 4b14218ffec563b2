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
