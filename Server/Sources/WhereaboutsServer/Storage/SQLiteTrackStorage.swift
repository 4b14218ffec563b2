import Foundation
import GRDB
import WhereaboutsCore

/// ``TrackStorage`` on an SQLite file through GRDB: WAL with `synchronous = FULL`, so a batch is on
/// disk before the server answers. Writes go through ``GroupCommit``: the writes of concurrent
/// requests share one transaction and one fsync, and each is answered once that has committed.
public final class SQLiteTrackStorage: TrackStorage {
    public var kind: String { "sqlite" }
    let pool: DatabasePool
    let writer: GroupCommit

    /// Opens or creates the file; `readOnly` opens an existing file only, and never writes to it.
    public init(path: String, readOnly: Bool = false) throws {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // The writer keeps the b-tree pages that random record ids touch (64 MiB instead of 2 MiB), so an
            // insert finds its index pages in memory instead of reading them back from the file.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 10000") }
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw ServerError.usage(
                readOnly
                    ? "the database \(path) cannot be opened for reading (\(error)); check the path names an existing database"
                    : "the database \(path) cannot be opened (\(error)); check the folder exists and is writable")
        }
        writer = GroupCommit(pool: pool)
    }

    /// Applies the migrations this database lacks; one that an earlier server made (it has any) is
    /// an upgrade, which keeps earlier OwnTracks ids for a while (``ownTracksLegacyIDsBefore()``).
    public func migrate(at date: Date) async throws {
        let upgrading = try await pool.read { db in try !Self.migrator(upgradedAt: nil).appliedIdentifiers(db).isEmpty }
        // Not the blocking `migrate(_:)`: its barrier would wait for the pool's readers on a thread of
        // the concurrency pool, which an async read needs to give its reader back.
        let migrator = Self.migrator(upgradedAt: upgrading ? date : nil)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            migrator.asyncMigrate(pool) { result in continuation.resume(with: result.map { _ in () }) }
        }
    }

    /// Applies the migrations up to and including `identifier` only: the schema an earlier server
    /// left, for tests of an upgrade.
    func migrate(upTo identifier: String) throws {
        try Self.migrator(upgradedAt: nil).migrate(pool, upTo: identifier)
    }

    public func checkMigrated() async throws {
        guard try await pool.read({ db in try Self.migrator(upgradedAt: nil).hasCompletedMigrations(db) }) else {
            throw ServerError.usage(
                "the database \(pool.path) is not migrated to this server's schema; run a command that writes (such as `serve`) once first")
        }
    }

    /// The schema, as versioned migrations applied in order; `upgradedAt`: when a database an earlier
    /// server made is upgraded (`nil` for a new one).
    private static func migrator(upgradedAt: Date?) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE device (id TEXT PRIMARY KEY, token_hash BLOB NOT NULL, created_at REAL NOT NULL) WITHOUT ROWID;
                    CREATE TABLE location (
                        device_id TEXT NOT NULL, id BLOB NOT NULL, t REAL NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
                        acc REAL NOT NULL, alt REAL, speed REAL, course REAL, trigger TEXT NOT NULL, dwell REAL NOT NULL,
                        received_at REAL NOT NULL
                    );
                    CREATE UNIQUE INDEX location_identity ON location(device_id, id);
                    CREATE INDEX location_time ON location(device_id, t, id);
                    CREATE TABLE event (
                        device_id TEXT NOT NULL, id BLOB NOT NULL, region_id TEXT NOT NULL, kind TEXT NOT NULL, t REAL NOT NULL,
                        lat REAL, lon REAL, received_at REAL NOT NULL, PRIMARY KEY (device_id, id)
                    ) WITHOUT ROWID;
                    CREATE INDEX event_time ON event(device_id, t);
                    CREATE TABLE command (seq INTEGER PRIMARY KEY, device_id TEXT NOT NULL, body BLOB NOT NULL, created_at REAL NOT NULL);
                    CREATE INDEX command_device ON command(device_id, seq);
                    """)
        }
        migrator.registerMigration("v2-regions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE region (
                        device_id TEXT NOT NULL, id TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, radius REAL NOT NULL,
                        updated_at REAL NOT NULL, PRIMARY KEY (device_id, id)
                    ) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v3-messages") { db in
            try db.execute(
                sql: """
                    CREATE TABLE message (
                        seq INTEGER PRIMARY KEY, device_id TEXT NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL, received_at REAL NOT NULL
                    );
                    CREATE INDEX message_device ON message(device_id, seq);
                    """)
        }
        migrator.registerMigration("v4-command-ids-initial-events") { db in
            try db.execute(
                sql: """
                    ALTER TABLE command ADD COLUMN id TEXT;
                    UPDATE command SET id = lower(hex(randomblob(16))) WHERE id IS NULL;
                    CREATE UNIQUE INDEX command_id ON command(device_id, id);
                    ALTER TABLE event ADD COLUMN initial INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        migrator.registerMigration("v5-command-leases-sessions") { db in
            try db.execute(
                sql: """
                    ALTER TABLE command ADD COLUMN leased_until REAL;
                    CREATE TABLE session (
                        id_hash BLOB PRIMARY KEY, device_id TEXT, token_hash BLOB NOT NULL, created_at REAL NOT NULL, expires_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX session_device ON session(device_id);
                    CREATE INDEX event_age ON event(t);
                    CREATE INDEX location_age ON location(t);
                    """)
        }
        registerOwnTracksMigration(in: &migrator)
        registerOwnTracksOrderedIDsMigration(in: &migrator, upgradedAt: upgradedAt)
        return migrator
    }

    public func saveRegions(_ regions: [WireRegion], device: String, at date: Date) async throws {
        try await writer.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO region (device_id, id, lat, lon, radius, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(device_id, id) DO UPDATE SET lat = excluded.lat, lon = excluded.lon, radius = excluded.radius,
                        updated_at = excluded.updated_at
                    """)
            for region in regions {
                try statement.execute(arguments: [
                    device, region.id, region.latitude, region.longitude, region.radius, date.timeIntervalSince1970,
                ])
            }
        }
    }

    public func regions(device: String) async throws -> [WireRegion] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, lat, lon, radius FROM region WHERE device_id = ? ORDER BY id", arguments: [device]).map {
                WireRegion(id: $0["id"], latitude: $0["lat"], longitude: $0["lon"], radius: $0["radius"])
            }
        }
    }

    public func saveMessage(_ type: String, body: String, device: String, at date: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO message (device_id, type, body, received_at) VALUES (?, ?, ?, ?)",
                arguments: [device, type, body, date.timeIntervalSince1970])
        }
    }

    public func messages(device: String) async throws -> [DeviceMessage] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT type, body, received_at FROM message WHERE device_id = ? ORDER BY seq", arguments: [device])
                .map {
                    DeviceMessage(type: $0["type"], body: $0["body"], receivedAt: Date(timeIntervalSince1970: $0["received_at"]))
                }
        }
    }

    public func addDevice(id: String, tokenHash: Data, at date: Date) async throws {
        try await writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM device WHERE id = ?", arguments: [id]) == nil else {
                throw ServerError.deviceExists(id)
            }
            try db.execute(
                sql: "INSERT INTO device (id, token_hash, created_at) VALUES (?, ?, ?)",
                arguments: [id, tokenHash, date.timeIntervalSince1970])
        }
    }

    public func tokenHash(device: String) async throws -> Data? {
        try await pool.read { db in try Self.tokenHash(of: device, in: db) }
    }

    private static func tokenHash(of device: String, in db: Database) throws -> Data? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT token_hash FROM device WHERE id = ?"), arguments: [device])
    }

    public func devices() async throws -> [DeviceInfo] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.created_at, (SELECT count(*) FROM location l WHERE l.device_id = d.id) AS n,
                        (SELECT max(t) FROM location l WHERE l.device_id = d.id) AS last
                    FROM device d ORDER BY d.id
                    """
            ).map { row in
                DeviceInfo(
                    id: row["id"], createdAt: Date(timeIntervalSince1970: row["created_at"]), locations: row["n"],
                    lastSeen: (row["last"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func ingest(_ records: [LocationRecord], device: String, at date: Date) async throws -> IngestCounts {
        try await writer.write { db in try Self.insert(records, device: device, at: date, in: db) }
    }

    /// Inserts `records` in the open transaction; a (device, id) already held counts as a duplicate,
    /// which makes the stored row the best of both (``ResendRule``).
    static func insert(_ records: [LocationRecord], device: String, at date: Date, in db: Database) throws -> IngestCounts {
        var counts = IngestCounts()
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO location (device_id, id, t, lat, lon, acc, alt, speed, course, trigger, dwell, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(device_id, id) DO NOTHING
                """)
        let improve = try db.cachedStatement(sql: Self.improveStatement)
        for record in records {
            let fix = record.fix
            try insert.execute(arguments: [
                device, record.id, fix.timestamp.timeIntervalSince1970, fix.coordinate.latitude, fix.coordinate.longitude,
                fix.horizontalAccuracy, fix.altitude, fix.speed, fix.course, record.trigger.rawValue, record.dwell,
                date.timeIntervalSince1970,
            ])
            if db.changesCount == 1 {
                counts.accepted += 1
            } else {
                counts.duplicate += 1
                try improve.execute(arguments: [
                    "dwell": record.dwell, "acc": fix.horizontalAccuracy, "lat": fix.coordinate.latitude,
                    "lon": fix.coordinate.longitude, "alt": fix.altitude, "speed": fix.speed, "course": fix.course,
                    "device": device, "id": record.id,
                ])
            }
        }
        return counts
    }

    /// The `UPDATE` that makes a stored location the best of it and a resent copy (``ResendRule``).
    private static let improveStatement = """
        UPDATE location SET \(ResendRule.assignments(stored: { $0 }, resent: { ":" + $0 }, greatest: "max", least: "min"))
        WHERE device_id = :device AND id = :id AND \(ResendRule.improves(stored: { $0 }, resent: { ":" + $0 }))
        """

    public func ingest(_ events: [ReceivedEvent], device: String, at date: Date) async throws -> IngestCounts {
        try await writer.write { db in
            var counts = IngestCounts()
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO event (device_id, id, region_id, kind, t, lat, lon, received_at, initial) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(device_id, id) DO NOTHING
                    """)
            for event in events {
                try insert.execute(arguments: [
                    device, event.id, event.regionID, event.kind.rawValue, event.timestamp.timeIntervalSince1970, event.latitude,
                    event.longitude, date.timeIntervalSince1970, event.initial,
                ])
                if db.changesCount == 1 { counts.accepted += 1 } else { counts.duplicate += 1 }
            }
            return counts
        }
    }

    public func last(device: String) async throws -> LocationRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM location WHERE device_id = ? ORDER BY t DESC, id DESC LIMIT 1", arguments: [device])
                .map(Self.record)
        }
    }

    public func history(device: String, from: Date, to: Date, page: Int, _ body: ([LocationRecord]) async throws -> Void) async throws {
        var cursor: (Double, Data)? = nil
        while true {
            // The page comes out of the read as records and the next cursor, both Sendable: a closure that
            // returned GRDB's rows (not Sendable) picked the blocking `read`, which waited for a reader on the
            // concurrency pool's thread; with the pool's threads all waiting so, the async reads holding
            // the readers could never resume to give them back, and the process stalled.
            let (records, next) = try await pool.read { [cursor] db -> ([LocationRecord], (Double, Data)?) in
                let rows: [Row]
                if let (t, id) = cursor {
                    rows = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT * FROM location WHERE device_id = ? AND (t > ? OR (t = ? AND id > ?)) AND t < ?
                            ORDER BY t, id LIMIT ?
                            """, arguments: [device, t, t, id, to.timeIntervalSince1970, page])
                } else {
                    rows = try Row.fetchAll(
                        db, sql: "SELECT * FROM location WHERE device_id = ? AND t >= ? AND t < ? ORDER BY t, id LIMIT ?",
                        arguments: [device, from.timeIntervalSince1970, to.timeIntervalSince1970, page])
                }
                return (rows.map(Self.record), rows.last.map { ($0["t"], $0["id"]) })
            }
            guard let next else { return }
            cursor = next
            try await body(records)
            if records.count < page { return }
        }
    }

    public func events(device: String, from: Date, to: Date) async throws -> [ReceivedEvent] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM event WHERE device_id = ? AND t >= ? AND t < ? ORDER BY t, id",
                arguments: [device, from.timeIntervalSince1970, to.timeIntervalSince1970]
            ).map { row in
                ReceivedEvent(
                    id: row["id"], regionID: row["region_id"], kind: RegionEventKind(rawValue: row["kind"]) ?? .enter,
                    timestamp: Date(timeIntervalSince1970: row["t"]), latitude: row["lat"], longitude: row["lon"], initial: row["initial"])
            }
        }
    }

    public func queue(_ queued: DeviceCommand, device: String, at date: Date) async throws {
        let body = try JSONEncoder().encode(queued.command)
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO command (device_id, id, body, created_at) VALUES (?, ?, ?, ?)",
                arguments: [device, queued.id, body, date.timeIntervalSince1970])
        }
    }

    public func ingest(
        _ records: [LocationRecord], device: String, tokenHash: Data, acknowledging acknowledged: [String], at date: Date, lease: Double
    ) async throws -> (counts: IngestCounts, commands: [DeviceCommand]) {
        let now = date.timeIntervalSince1970
        let (counts, due) = try await writer.write { db in
            guard try Self.tokenHash(of: device, in: db) == tokenHash else { throw CredentialChanged(device: device) }
            let counts = try Self.insert(records, device: device, at: date, in: db)
            let forget = try db.cachedStatement(sql: "DELETE FROM command WHERE device_id = ? AND id = ?")
            for id in acknowledged { try forget.execute(arguments: [device, id]) }
            let due = try Self.due(db, device: device, now: now)
            let leaseStatement = try db.cachedStatement(sql: "UPDATE command SET leased_until = ? WHERE seq = ?")
            for command in due { try leaseStatement.execute(arguments: [now + lease, command.seq]) }
            return (counts, due)
        }
        return (
            counts,
            due.compactMap { queued in
                (try? JSONDecoder().decode(ServerCommand.self, from: queued.body)).map { DeviceCommand(id: queued.id, command: $0) }
            }
        )
    }

    /// Takes what is due. Most answers carry no command: a read first finds out whether there is
    /// anything to take, without taking a place in a write transaction (a command queued meanwhile
    /// goes out with the next answer).
    public func takeCommands(device: String, at date: Date) async throws -> [ServerCommand] {
        let now = date.timeIntervalSince1970
        if try await pool.read({ db in try Self.due(db, device: device, now: now).isEmpty }) { return [] }
        let due = try await writer.write { db in try Self.take(db, device: device, now: now) }
        return due.compactMap { try? JSONDecoder().decode(ServerCommand.self, from: $0) }
    }

    /// Deletes the device's commands due at `now` in the open transaction and returns their bodies, oldest first.
    static func take(_ db: Database, device: String, now: Double) throws -> [Data] {
        let due = try due(db, device: device, now: now)
        let take = try db.cachedStatement(sql: "DELETE FROM command WHERE seq = ?")
        for command in due { try take.execute(arguments: [command.seq]) }
        return due.map(\.body)
    }

    /// The device's commands not under lease at `now`, oldest first.
    private static func due(_ db: Database, device: String, now: Double) throws -> [QueuedCommand] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT seq, id, body FROM command WHERE device_id = ? AND (leased_until IS NULL OR leased_until <= ?) ORDER BY seq"),
            arguments: [device, now]
        ).map { QueuedCommand(seq: $0["seq"], id: $0["id"], body: $0["body"]) }
    }

    /// A row of `command`.
    private struct QueuedCommand: Sendable {
        let seq: Int64
        let id: String
        let body: Data
    }

    public func rotateToken(device: String, tokenHash: Data) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "UPDATE device SET token_hash = ? WHERE id = ?", arguments: [tokenHash, device])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM session WHERE device_id = ?", arguments: [device])
            return true
        }
    }

    public func removeDevice(_ id: String) async throws -> DeletedRows? {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM device WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { return nil }
            var deleted = DeletedRows()
            deleted.logins = try Self.delete(db, "DELETE FROM session WHERE device_id = ?", [id])
            deleted.commands = try Self.delete(db, "DELETE FROM command WHERE device_id = ?", [id])
            try db.execute(sql: "DELETE FROM owntracks_device WHERE device_id = ?", arguments: [id])
            return deleted
        }
    }

    public func deleteDevice(_ id: String) async throws -> DeletedRows {
        try await writer.write { db in
            var deleted = DeletedRows()
            try db.execute(sql: "DELETE FROM device WHERE id = ?", arguments: [id])
            deleted.locations = try Self.delete(db, "DELETE FROM location WHERE device_id = ?", [id])
            deleted.events = try Self.delete(db, "DELETE FROM event WHERE device_id = ?", [id])
            deleted.messages = try Self.delete(db, "DELETE FROM message WHERE device_id = ?", [id])
            deleted.regions = try Self.delete(db, "DELETE FROM region WHERE device_id = ?", [id])
            deleted.commands = try Self.delete(db, "DELETE FROM command WHERE device_id = ?", [id])
            deleted.logins = try Self.delete(db, "DELETE FROM session WHERE device_id = ?", [id])
            try db.execute(sql: "DELETE FROM owntracks_location WHERE device_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM owntracks_device WHERE device_id = ?", arguments: [id])
            return deleted
        }
    }

    public func prune(before date: Date) async throws -> DeletedRows {
        let cutoff = date.timeIntervalSince1970
        return try await writer.write { db in
            var deleted = DeletedRows()
            deleted.locations = try Self.delete(db, "DELETE FROM location WHERE t < ?", [cutoff])
            try db.execute(sql: "DELETE FROM owntracks_location WHERE t < ?", arguments: [cutoff])
            deleted.events = try Self.delete(db, "DELETE FROM event WHERE t < ?", [cutoff])
            deleted.messages = try Self.delete(db, "DELETE FROM message WHERE received_at < ?", [cutoff])
            return deleted
        }
    }

    /// Runs a DELETE and answers how many rows it removed.
    private static func delete(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> Int {
        try db.execute(sql: sql, arguments: arguments)
        return db.changesCount
    }

    public func saveLogin(_ login: BrowserLogin) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO session (id_hash, device_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    login.idHash, login.device, login.tokenHash, login.createdAt.timeIntervalSince1970,
                    login.expiresAt.timeIntervalSince1970,
                ])
        }
    }

    public func login(idHash: Data, at date: Date) async throws -> BrowserLogin? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT device_id, token_hash, created_at, expires_at FROM session WHERE id_hash = ? AND expires_at > ?",
                arguments: [idHash, date.timeIntervalSince1970]
            ).map {
                BrowserLogin(
                    idHash: idHash, device: $0["device_id"], tokenHash: $0["token_hash"],
                    createdAt: Date(timeIntervalSince1970: $0["created_at"]), expiresAt: Date(timeIntervalSince1970: $0["expires_at"]))
            }
        }
    }

    public func endLogin(idHash: Data, at date: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM session WHERE id_hash = ? OR expires_at <= ?", arguments: [idHash, date.timeIntervalSince1970])
        }
    }

    public func ping() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// Closes the file, waiting on a thread of Dispatch's: GRDB's close waits for every reader to be
    /// given back, which an async read does only once it resumes on the concurrency pool, so a close
    /// waiting on the pool's threads could hold up the very reads it waits for.
    public func close() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try self.closeNow() }) }
        }
    }

    /// Closes the file at once, waiting on the calling thread for reads under way: not for a thread of
    /// the concurrency pool (``close()``).
    public func closeNow() throws { try pool.close() }

    static func record(_ row: Row) -> LocationRecord {
        .restored(
            id: row["id"], latitude: row["lat"], longitude: row["lon"], accuracy: row["acc"], altitude: row["alt"], speed: row["speed"],
            course: row["course"], timestamp: Date(timeIntervalSince1970: row["t"]),
            trigger: RecordTrigger(rawValue: row["trigger"]) ?? .policy,
            dwell: row["dwell"])
    }
}
