import Foundation

/// Where the server keeps devices, tracks, events, queued commands and browser logins, by role:
/// ``DeviceStorage``, ``TrackIngest``, ``TrackReading`` and ``OwnTracksStorage``. Every
/// implementation passes the same contract tests. A write returns only once it is durable (committed
/// and synced). Any number of server processes may share one PostgreSQL database and behave as one.
public protocol TrackStorage: DeviceStorage, TrackIngest, TrackReading, OwnTracksStorage {
    /// A short name for logs and `/health` (`sqlite`, `postgres`).
    var kind: String { get }
    /// Creates the schema if needed (versioned migrations); a database an earlier server made is
    /// upgraded at `date`.
    func migrate(at date: Date) async throws
    /// Checks, without changing anything, that every migration has been applied: for the commands
    /// that only read, which never migrate.
    /// - Throws: ``ServerError/usage(_:)`` when the schema is missing or older than this server's.
    func checkMigrated() async throws
    /// Checks the database answers.
    func ping() async throws
    /// Closes connections.
    func close() async throws
}
