import ArgumentParser
import Foundation
import Logging
import WhereaboutsCore
import WhereaboutsServer

/// `whereabouts-server`: ingest, deduplicate, store and serve device tracks.
@main
struct WhereaboutsServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whereabouts-server", abstract: "Ingest, deduplicate, store and serve device tracks.",
        subcommands: [Serve.self, DeviceCommand.self, Prune.self, Bench.self])
}

/// Flags shared by every subcommand; each falls back to an environment variable.
struct DatabaseOption: ParsableArguments {
    @Option(
        help:
            "sqlite:PATH or postgres://user:password@host:port/database[?sslmode=disable|require|verify-full&sslrootcert=PATH&pool_size=N&statement_timeout=MS] (env WHEREABOUTS_DATABASE)."
    )
    var database: String?

    func url() throws -> DatabaseURL {
        let text = database ?? ProcessInfo.processInfo.environment["WHEREABOUTS_DATABASE"] ?? "sqlite:./whereabouts.sqlite"
        do { return try DatabaseURL(parsing: text) } catch { throw ValidationError("\(error)") }
    }

    /// Runs `body` with the storage, migrated (or, `readOnly`, opened only to read), logging warnings
    /// and worse; usage errors become validation errors (exit status 64 with the message).
    func withStorage<T: Sendable>(
        readOnly: Bool = false, _ body: @escaping @Sendable (any TrackStorage) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "whereabouts-server")
        logger.logLevel = .warning
        do {
            return try await ServerApp.withStorage(try url(), readOnly: readOnly, logger: logger, body)
        } catch let error as ServerError {
            throw ValidationError("\(error)")
        }
    }
}

/// `whereabouts-server prune --before DATE`: retention.
struct Prune: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete locations and events timestamped before a day, and OwnTracks messages received before it.",
        discussion: "On PostgreSQL whole monthly partitions are dropped; only the month the day falls in is deleted row by row.")

    @Option(help: "The first day to keep: YYYY-MM-DD (UTC midnight) or an RFC 3339 time.") var before: String
    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let cutoff = try Self.moment(before)
        let deleted = try await database.withStorage { try await $0.prune(before: cutoff) }
        print("pruned before \(Timestamp.format(cutoff)): \(deleted)")
    }

    /// `YYYY-MM-DD` as midnight UTC, or an RFC 3339 time, in the past.
    /// - Throws: `ValidationError` naming the value, the problem and the forms accepted.
    static func moment(_ text: String) throws -> Date {
        let cutoff: Date
        do {
            cutoff = try Timestamp.validated(text.count == 10 ? text + "T00:00:00Z" : text, field: "--before")
        } catch {
            throw ValidationError("\(error); --before also takes a day as YYYY-MM-DD (midnight UTC)")
        }
        guard cutoff <= Date() else {
            throw ValidationError(
                "--before \(Timestamp.format(cutoff)) is in the future, which would delete everything; give a past day as YYYY-MM-DD, such as a year ago"
            )
        }
        return cutoff
    }
}
