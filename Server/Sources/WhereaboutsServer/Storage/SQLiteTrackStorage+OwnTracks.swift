import Foundation
import GRDB
import WhereaboutsCore

/// OwnTracks profiles, every field of OwnTracks locations, and the newest message of a type, on SQLite.
extension SQLiteTrackStorage {
    /// The OwnTracks step of the schema, in one migration of its own: profiles (`owntracks_device`),
    /// location fields (`owntracks_location`, by the location's device and id) and an index to find a
    /// device's newest message of a type.
    static func registerOwnTracksMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-owntracks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE owntracks_device (
                        device_id TEXT PRIMARY KEY, owntracks_user TEXT, device_name TEXT, friends_group TEXT, secret TEXT
                    ) WITHOUT ROWID;
                    CREATE INDEX owntracks_device_group ON owntracks_device(friends_group);
                    CREATE TABLE owntracks_location (
                        device_id TEXT NOT NULL, id BLOB NOT NULL, t REAL NOT NULL, tid TEXT, topic TEXT, batt INTEGER, bs INTEGER,
                        conn TEXT, ssid TEXT, bssid TEXT, message TEXT NOT NULL, PRIMARY KEY (device_id, id)
                    ) WITHOUT ROWID;
                    CREATE INDEX owntracks_location_age ON owntracks_location(t);
                    CREATE INDEX message_type ON message(device_id, type, seq);
                    """)
        }
    }

    /// Time-ordered ids for OwnTracks locations sent without `_id`: upgrading a database an earlier
    /// server made at `upgradedAt`, it records until when the earlier, name-based ids still apply
    /// (``ownTracksLegacyIDsBefore()``).
    static func registerOwnTracksOrderedIDsMigration(in migrator: inout DatabaseMigrator, upgradedAt: Date?) {
        migrator.registerMigration("v7-owntracks-ordered-ids") { db in
            try db.execute(sql: "CREATE TABLE owntracks_legacy_ids (legacy_before REAL NOT NULL)")
            if let upgradedAt {
                try db.execute(
                    sql: "INSERT INTO owntracks_legacy_ids VALUES (?)", arguments: [OwnTracksLegacyIDs.limit(migratedAt: upgradedAt)])
            }
        }
    }

    public func ownTracksLegacyIDsBefore() async throws -> Date? {
        try await pool.read { db in
            try Double.fetchOne(db, sql: "SELECT max(legacy_before) FROM owntracks_legacy_ids").map(Date.init(timeIntervalSince1970:))
        }
    }

    public func ownTracksProfiles() async throws -> [OwnTracksProfile] {
        try await profiles(where: "1", arguments: [])
    }

    public func ownTracksProfile(device: String) async throws -> OwnTracksProfile? {
        try await profiles(where: "d.id = ?", arguments: [device]).first
    }

    public func ownTracksProfiles(group: String) async throws -> [OwnTracksProfile] {
        try await profiles(where: "p.friends_group = ?", arguments: [group])
    }

    public func ownTracksProfile(topic: String) async throws -> OwnTracksProfile? {
        try await profiles(
            where: "'owntracks/' || COALESCE(p.owntracks_user, d.id) || '/' || COALESCE(p.device_name, d.id) = ?", arguments: [topic]
        ).first
    }

    public func ownTracksAccount(device: String) async throws -> OwnTracksAccount? {
        try await pool.read { db in try Self.account(of: device, in: db) }
    }

    /// The device's account as stored, in `db`'s transaction.
    private static func account(of device: String, in db: Database) throws -> OwnTracksAccount? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT d.token_hash, p.owntracks_user, p.device_name, p.friends_group, p.secret
                    FROM device d LEFT JOIN owntracks_device p ON p.device_id = d.id WHERE d.id = ?
                    """), arguments: [device]
        ).map {
            OwnTracksAccount(
                tokenHash: $0["token_hash"],
                profile: OwnTracksProfile(
                    device: device, user: $0["owntracks_user"], name: $0["device_name"], group: $0["friends_group"], key: $0["secret"]))
        }
    }

    /// The profiles of the devices matching `condition` (on `device d` and `owntracks_device p`), by device id.
    private func profiles(where condition: String, arguments: StatementArguments) async throws -> [OwnTracksProfile] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT d.id, p.owntracks_user, p.device_name, p.friends_group, p.secret
                        FROM device d LEFT JOIN owntracks_device p ON p.device_id = d.id WHERE \(condition) ORDER BY d.id
                        """), arguments: arguments
            ).map {
                OwnTracksProfile(
                    device: $0["id"], user: $0["owntracks_user"], name: $0["device_name"], group: $0["friends_group"], key: $0["secret"])
            }
        }
    }

    public func saveOwnTracksProfile(_ profile: OwnTracksProfile) async throws -> Bool {
        try await writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM device WHERE id = ?", arguments: [profile.device]) != nil else { return false }
            try db.execute(
                sql: """
                    INSERT INTO owntracks_device (device_id, owntracks_user, device_name, friends_group, secret) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(device_id) DO UPDATE SET owntracks_user = excluded.owntracks_user, device_name = excluded.device_name,
                        friends_group = excluded.friends_group, secret = excluded.secret
                    """, arguments: [profile.device, profile.user, profile.name, profile.group, profile.key])
            return true
        }
    }

    public func saveOwnTracksFields(_ fields: OwnTracksFields, record: UUID, timestamp: Date, device: String) async throws {
        try await writer.write { db in try Self.save(fields, record: record, timestamp: timestamp, device: device, in: db) }
    }

    public func ingestOwnTracksTakingCommands(_ record: LocationRecord, fields: OwnTracksFields, account: OwnTracksAccount, at date: Date)
        async throws -> (counts: IngestCounts, commands: [ServerCommand])
    {
        let device = account.profile.device
        let (counts, taken) = try await writer.write { db in
            guard try Self.account(of: device, in: db) == account else { throw CredentialChanged(device: device) }
            try Self.save(fields, record: record.id, timestamp: record.fix.timestamp, device: device, in: db)
            return (
                try Self.insert([record], device: device, at: date, in: db),
                try Self.take(db, device: device, now: date.timeIntervalSince1970)
            )
        }
        return (counts, taken.compactMap { try? JSONDecoder().decode(ServerCommand.self, from: $0) })
    }

    private static func save(_ fields: OwnTracksFields, record: UUID, timestamp: Date, device: String, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO owntracks_location (device_id, id, t, tid, topic, batt, bs, conn, ssid, bssid, message)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(device_id, id) DO UPDATE SET t = excluded.t, tid = excluded.tid, topic = excluded.topic, batt = excluded.batt,
                    bs = excluded.bs, conn = excluded.conn, ssid = excluded.ssid, bssid = excluded.bssid, message = excluded.message
                WHERE NOT EXISTS (SELECT 1 FROM location l WHERE l.device_id = excluded.device_id AND l.id = excluded.id)
                """
        ).execute(arguments: [
            device, record, timestamp.timeIntervalSince1970, fields.tid, fields.topic, fields.battery, fields.batteryStatus,
            fields.connectivity, fields.ssid, fields.bssid, fields.message,
        ])
    }

    public func ownTracksLocations(device: String, from: Date, to: Date, limit: Int?) async throws -> [OwnTracksLocation] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT l.*, o.tid AS ot_tid, o.topic AS ot_topic, o.batt AS ot_batt, o.bs AS ot_bs, o.conn AS ot_conn,
                        o.ssid AS ot_ssid, o.bssid AS ot_bssid, o.message AS ot_message
                    FROM location l LEFT JOIN owntracks_location o ON o.device_id = l.device_id AND o.id = l.id
                    WHERE l.device_id = ? AND l.t >= ? AND l.t < ?
                    ORDER BY l.t \(limit == nil ? "ASC, l.id ASC" : "DESC, l.id DESC") LIMIT ?
                    """, arguments: [device, from.timeIntervalSince1970, to.timeIntervalSince1970, limit ?? -1]
            ).map { row in
                let fields = (row["ot_message"] as String?).map { message in
                    OwnTracksFields(
                        tid: row["ot_tid"], topic: row["ot_topic"], battery: row["ot_batt"], batteryStatus: row["ot_bs"],
                        connectivity: row["ot_conn"], ssid: row["ot_ssid"], bssid: row["ot_bssid"], message: message)
                }
                return OwnTracksLocation(
                    record: Self.record(row), fields: fields, receivedAt: Date(timeIntervalSince1970: row["received_at"]))
            }
        }
    }

    public func lastMessage(_ type: String, device: String) async throws -> DeviceMessage? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT type, body, received_at FROM message WHERE device_id = ? AND type = ? ORDER BY seq DESC LIMIT 1",
                arguments: [device, type]
            ).map { DeviceMessage(type: $0["type"], body: $0["body"], receivedAt: Date(timeIntervalSince1970: $0["received_at"])) }
        }
    }
}
