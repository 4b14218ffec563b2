import Foundation
import WhereaboutsCore

/// Where the server keeps devices, tracks, events, queued commands and login sessions. Every
/// implementation passes the same contract tests. A write returns only once it is durable (committed
/// and synced). Any number of server processes may share one PostgreSQL database and behave as one.
public protocol TrackStorage: OwnTracksStorage {
    /// A short name for logs and `/health` (`sqlite`, `postgres`).
    var kind: String { get }
    /// Creates the schema if needed (versioned migrations).
    func migrate() async throws
    /// Checks, without changing anything, that every migration has been applied: for the commands
    /// that only read, which never migrate.
    /// - Throws: ``ServerError/usage(_:)`` when the schema is missing or older than this server's.
    func checkMigrated() async throws

    // MARK: Devices

    /// Adds a device with the SHA-256 of its token.
    /// - Throws: ``ServerError`` when the id is taken.
    func addDevice(id: String, tokenHash: Data, at date: Date) async throws
    /// The SHA-256 of a device's token, or `nil` for an unknown device.
    func tokenHash(device: String) async throws -> Data?
    /// The device's token digest and OwnTracks profile, or `nil` for an unknown device, in one read:
    /// what `/pub` reads before it can check the token and open the message.
    func ownTracksAccount(device: String) async throws -> OwnTracksAccount?
    /// Every device, with counts.
    func devices() async throws -> [DeviceInfo]
    /// Replaces the device's token hash and ends its login sessions; `false` for an unknown device.
    /// The old token is refused from the next request on, by every instance.
    func rotateToken(device: String, tokenHash: Data) async throws -> Bool
    /// Removes the device: its token, login sessions and queued commands. Its locations, events,
    /// regions and messages stay (for the admin's reads, `prune` and `device delete`); `nil` for an
    /// unknown device.
    func removeDevice(_ id: String) async throws -> DeletedRows?
    /// Deletes everything of the device: the device, locations, events, regions, messages, commands
    /// and sessions, whether or not the device itself is still known.
    func deleteDevice(_ id: String) async throws -> DeletedRows
    /// Deletes locations and events with timestamps before `date`, and messages received before it:
    /// on PostgreSQL whole monthly partitions are dropped, and rows deleted only in the month `date`
    /// falls in.
    func prune(before date: Date) async throws -> DeletedRows

    // MARK: Tracks

    /// Stores validated records; a (device, id) already held counts as a duplicate. A duplicate keeps
    /// the larger dwell and the finer position (with its altitude, speed and course): a phone sends a
    /// record again when its stay grows or a finer fix places it better, and whatever order the copies
    /// arrive in, the row ends as the best of them.
    func ingest(_ records: [LocationRecord], device: String, at date: Date) async throws -> IngestCounts
    /// Stores region events, duplicates by (device, id) ignored.
    func ingest(_ events: [ReceivedEvent], device: String, at date: Date) async throws -> IngestCounts
    /// The newest location by timestamp.
    func last(device: String) async throws -> LocationRecord?
    /// Locations with `from <= timestamp < to`, sorted by timestamp, handed over in pages so a
    /// long history is never held in memory at once.
    func history(device: String, from: Date, to: Date, page: Int, _ body: ([LocationRecord]) async throws -> Void) async throws
    /// Events with `from <= timestamp < to`, sorted by timestamp.
    func events(device: String, from: Date, to: Date) async throws -> [ReceivedEvent]
    /// Stores regions the device defined (OwnTracks waypoints), replacing any with the same id; of
    /// several with one id in `regions`, the last is kept.
    func saveRegions(_ regions: [WireRegion], device: String, at date: Date) async throws
    /// The regions the device defined, by id.
    func regions(device: String) async throws -> [WireRegion]
    /// Keeps a message as it came (OwnTracks `card`, `lwt`, `status`); every call stores one more.
    func saveMessage(_ type: String, body: String, device: String, at date: Date) async throws
    /// The device's kept messages, oldest first.
    func messages(device: String) async throws -> [DeviceMessage]

    // MARK: Commands

    /// Queues a command, with a new id, for the device's upload answers.
    func queue(_ command: ServerCommand, device: String, at date: Date) async throws -> DeviceCommand
    /// The batch API's write: stores `records` (a duplicate keeps the larger dwell and the finer position), forgets the
    /// device's commands it `acknowledged` (carried out), then leases the commands still queued and
    /// not under lease to this answer for `lease` seconds from `date` and returns them oldest first,
    /// provided `tokenHash` is still the device's stored token digest (the one the request was
    /// authenticated with), all in one transaction. A token rotated or removed before it is refused;
    /// PostgreSQL also locks the device row, so one rotated or removed meanwhile waits for the write.
    ///
    /// A command goes out with one answer at a time: however many instances answer the device at
    /// once, only one of them sends it; it goes out again with a later answer once its lease has run
    /// out without an acknowledgement (a lost answer, a crash on either side), and is deleted only
    /// when the device acknowledges it. The device recognises a command it sees twice by its id.
    /// - Throws: ``CredentialChanged``, having written nothing, when the stored digest differs.
    func ingest(
        _ records: [LocationRecord], device: String, tokenHash: Data, acknowledging acknowledged: [String], at date: Date, lease: Double
    ) async throws -> (counts: IngestCounts, commands: [DeviceCommand])
    /// Takes the device's queued commands not under lease, oldest first, forgetting them: for
    /// OwnTracks answers, whose apps cannot acknowledge. Each goes out exactly once, across instances.
    func takeCommands(device: String, at date: Date) async throws -> [ServerCommand]
    /// `/pub`'s write: stores an OwnTracks location of `account`'s device with its fields, the fields
    /// first as ``OwnTracksStorage/saveOwnTracksFields(_:record:timestamp:device:)`` keeps them, then
    /// takes the device's due commands as ``takeCommands(device:at:)`` does, provided the device's stored account is still
    /// `account` (the one the request was authenticated with), all in one transaction. A token rotated
    /// or removed before it is refused; PostgreSQL also locks the device row, so one rotated or removed
    /// meanwhile waits for the write.
    /// - Throws: ``CredentialChanged``, having written nothing, when the stored account differs.
    func ingestOwnTracksTakingCommands(_ record: LocationRecord, fields: OwnTracksFields, account: OwnTracksAccount, at date: Date)
        async throws
        -> (counts: IngestCounts, commands: [ServerCommand])

    // MARK: Sessions

    /// Stores a new login session.
    func createSession(_ session: StoredSession) async throws
    /// The session whose cookie hashes to `idHash`, if it exists and has not expired at `date`.
    func session(idHash: Data, at date: Date) async throws -> StoredSession?
    /// Ends a session (logout).
    func deleteSession(idHash: Data) async throws

    /// Checks the database answers.
    func ping() async throws
    /// Closes connections.
    func close() async throws
}
