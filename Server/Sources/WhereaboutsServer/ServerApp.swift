import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import WhereaboutsCore
import WhereaboutsMQTT

/// Opens storage and runs the HTTP server.
public enum ServerApp {
    /// Runs `body` with the storage `url` names, migrated; a PostgreSQL pool runs for as long as the
    /// body does. `readOnly` (for the commands that only read) migrates nothing and requires the
    /// schema to be current; an SQLite file is opened read-only, so a missing one is not created.
    /// `clock` dates the migrations.
    public static func withStorage<T: Sendable>(
        _ url: DatabaseURL, readOnly: Bool = false, clock: EngineClock = .system, logger: Logger,
        _ body: @escaping @Sendable (any TrackStorage) async throws -> T
    ) async throws -> T {
        let prepare: @Sendable (any TrackStorage) async throws -> Void = { storage in
            if readOnly { try await storage.checkMigrated() } else { try await storage.migrate(at: clock.now()) }
        }
        switch url {
        case .sqlite(let path):
            let storage = try SQLiteTrackStorage(path: path, readOnly: readOnly)
            do {
                try await prepare(storage)
                let value = try await body(storage)
                try? await storage.close()
                return value
            } catch {
                try? await storage.close()
                throw error
            }
        case .postgres(let settings):
            try await settings.checkConnection(logger: logger)
            let storage = try PostgresTrackStorage(settings, logger: logger)
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    await storage.run()
                    return nil
                }
                group.addTask {
                    try await prepare(storage)
                    return try await body(storage)
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let result { return result }
                }
                throw CancellationError()
            }
        }
    }

    /// Serves the API on `host:port` (0 picks a free port) until SIGTERM or SIGINT, then finishes the
    /// requests in flight and returns. `onRunning` receives the bound port. With `mqtt`, it also
    /// stores the messages of that subscription as `/pub` does, for as long as it serves. Every
    /// route tells the time by `clock`; `recordIDs` mints the ids of the commands the admin queues
    /// (time-ordered version 7 UUIDs by default).
    /// - Throws: ``ServerError/usage(_:)`` for unusable settings.
    public static func serve(
        storage: any TrackStorage, host: String, port: Int, settings: ServerSettings, mqtt: MQTTSubscription? = nil,
        clock: EngineClock = .system, recordIDs: @escaping @Sendable (Date) -> UUID = { RecordID.make(at: $0) }, logger: Logger,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let settings = try settings.validated()
        let api = API(
            storage: storage, settings: settings, clock: clock, recordIDs: recordIDs, logger: logger,
            ownTracksLegacyIDsBefore: try await storage.ownTracksLegacyIDsBefore())
        let connections = ConnectionCounter(limit: settings.maxConnections, perAddress: settings.maxConnectionsPerAddress)
        let app = Application(
            router: api.router(),
            server: HTTPServerBuilder { responder in
                GuardedHTTP1Channel(responder: responder, settings: settings, connections: connections, metrics: api.metrics) {
                    try await api.shouldUpgrade($0, channel: $1, logger: $2)
                }
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "whereabouts-server"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let mqtt { group.addTask { await MQTTSubscriber(mqtt, logger: logger).run(handle: api.ingest) } }
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
            group.cancelAll()
        }
    }
}
