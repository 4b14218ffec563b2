import Foundation
import PostgresNIO
import WhereaboutsCore

/// OwnTracks profiles, every field of OwnTracks locations, and the newest message of a type, on PostgreSQL.
extension PostgresTrackStorage {
    /// The OwnTracks step of the schema, one migration of its own: profiles (`owntracks_device`),
    /// location fields (`owntracks_location`, by the location's device and id) and an index to find a
    /// device's newest message of a type.
    static let schemaV6OwnTracks = [
        """
        CREATE TABLE owntracks_device (
            device_id TEXT PRIMARY KEY, owntracks_user TEXT, device_name TEXT, friends_group TEXT, secret TEXT
        )
        """,
        "CREATE INDEX owntracks_device_group ON owntracks_device (friends_group)",
        """
        CREATE TABLE owntracks_location (
            device_id TEXT NOT NULL, id UUID NOT NULL, t DOUBLE PRECISION NOT NULL, tid TEXT, topic TEXT, batt BIGINT, bs BIGINT,
            conn TEXT, ssid TEXT, bssid TEXT, message TEXT NOT NULL, PRIMARY KEY (device_id, id)
        )
        """,
        "CREATE INDEX owntracks_location_age ON owntracks_location (t)",
        "CREATE INDEX message_type ON message (device_id, type, seq)",
    ]

    /// The start of every profile query: each device with its profile's columns, in the order
    /// `profiles(_:)` decodes them; `p` is `owntracks_device`, joined by the query.
    private static let profileColumns = "SELECT d.id, p.owntracks_user, p.device_name, p.friends_group, p.secret FROM device d"

    public func ownTracksProfiles() async throws -> [OwnTracksProfile] {
        try await profiles(
            "\(unescaped: Self.profileColumns) LEFT JOIN owntracks_device p ON p.device_id = d.id ORDER BY d.id COLLATE \"C\"")
    }

    public func ownTracksProfile(device: String) async throws -> OwnTracksProfile? {
        try await profiles("\(unescaped: Self.profileColumns) LEFT JOIN owntracks_device p ON p.device_id = d.id WHERE d.id = \(device)")
            .first
    }

    public func ownTracksProfiles(group: String) async throws -> [OwnTracksProfile] {
        try await profiles(
            """
            \(unescaped: Self.profileColumns) JOIN owntracks_device p ON p.device_id = d.id WHERE p.friends_group = \(group) ORDER BY d.id COLLATE "C"
            """)
    }

    public func ownTracksProfile(topic: String) async throws -> OwnTracksProfile? {
        try await profiles(
            """
            \(unescaped: Self.profileColumns) LEFT JOIN owntracks_device p ON p.device_id = d.id
            WHERE 'owntracks/' || COALESCE(p.owntracks_user, d.id) || '/' || COALESCE(p.device_name, d.id) = \(topic)
            ORDER BY d.id COLLATE "C" LIMIT 1
            """
        ).first
    }

    /// The profiles `query` selects (columns: id, user, name, group, key).
    private func profiles(_ query: PostgresQuery) async throws -> [OwnTracksProfile] {
        let rows = try await client.query(query, logger: logger)
        var profiles: [OwnTracksProfile] = []
        for try await (id, user, name, group, key) in rows.decode((String, String?, String?, String?, String?).self) {
            profiles.append(OwnTracksProfile(device: id, user: user, name: name, group: group, key: key))
        }
        return profiles
    }

    /// Time-ordered ids for OwnTracks locations sent without `_id`: upgrading a database an earlier
    /// server made at `upgradedAt`, it records until when the earlier, name-based ids still apply
    /// (``ownTracksLegacyIDsBefore()``).
    static func schemaV7OwnTracksOrderedIDs(upgradedAt: Date?) -> [String] {
        ["CREATE TABLE owntracks_legacy_ids (legacy_before DOUBLE PRECISION NOT NULL)"]
            + (upgradedAt.map { ["INSERT INTO owntracks_legacy_ids VALUES (\(OwnTracksLegacyIDs.limit(migratedAt: $0)))"] } ?? [])
    }

    public func ownTracksLegacyIDsBefore() async throws -> Date? {
        let rows = try await client.query("SELECT max(legacy_before) FROM owntracks_legacy_ids", logger: logger)
        for try await before in rows.decode(Double?.self) { return before.map(Date.init(timeIntervalSince1970:)) }
        return nil
    }

    public func saveOwnTracksProfile(_ profile: OwnTracksProfile) async throws -> Bool {
        let rows = try await client.query(
            """
            INSERT INTO owntracks_device (device_id, owntracks_user, device_name, friends_group, secret)
            SELECT id, \(profile.user), \(profile.name), \(profile.group), \(profile.key) FROM device WHERE id = \(profile.device)
            ON CONFLICT (device_id) DO UPDATE SET owntracks_user = excluded.owntracks_user, device_name = excluded.device_name,
                friends_group = excluded.friends_group, secret = excluded.secret
            RETURNING device_id
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    public func saveOwnTracksFields(_ fields: OwnTracksFields, record: UUID, timestamp: Date, device: String) async throws {
        try await client.query(
            """
            INSERT INTO owntracks_location (\(unescaped: Self.fieldsColumns))
            VALUES (\(device), \(record), \(timestamp.timeIntervalSince1970), \(fields.tid), \(fields.topic), \(fields.battery),
                \(fields.batteryStatus), \(fields.connectivity), \(fields.ssid), \(fields.bssid), \(fields.message))
            \(unescaped: Self.savingFields)
            """, logger: logger)
    }

    /// The columns of `owntracks_location`.
    static let fieldsColumns = "device_id, id, t, tid, topic, batt, bs, conn, ssid, bssid, message"
    /// How inserted fields meet a row already saved: they replace it while the location itself is not
    /// stored (a location's fields stay those it was stored with).
    static let savingFields = """
        ON CONFLICT (device_id, id) DO UPDATE SET t = excluded.t, tid = excluded.tid, topic = excluded.topic, batt = excluded.batt,
            bs = excluded.bs, conn = excluded.conn, ssid = excluded.ssid, bssid = excluded.bssid, message = excluded.message
        WHERE NOT EXISTS (SELECT 1 FROM location_identity i WHERE i.device_id = excluded.device_id AND i.id = excluded.id)
        """

    /// Queued for the next group of `/pub` writes (``commitOwnTracks(_:)``), answered once it has
    /// committed: in one statement, the devices' rows are locked for share and each account compared
    /// with the stored one (a token rotated or removed before refuses the write, and one rotated or
    /// removed meanwhile waits for it; the profile row is compared but not locked), then the fields,
    /// the locations and the taking of the due commands.
    public func ingestOwnTracksTakingCommands(_ record: LocationRecord, fields: OwnTracksFields, account: OwnTracksAccount, at date: Date)
        async throws -> (counts: IngestCounts, commands: [ServerCommand])
    {
        let write = OwnTracksWrite(record: record, fields: fields, account: account, date: date)
        return try await ownTracksWrites.submit(write) { try await self.commitOwnTracks($0) }
    }

    public func ownTracksAccount(device: String) async throws -> OwnTracksAccount? {
        let rows = try await client.query(
            """
            SELECT d.token_hash, p.owntracks_user, p.device_name, p.friends_group, p.secret
            FROM device d LEFT JOIN owntracks_device p ON p.device_id = d.id WHERE d.id = \(device)
            """, logger: logger)
        for try await (hash, user, name, group, key) in rows.decode((ByteBuffer, String?, String?, String?, String?).self) {
            return OwnTracksAccount(
                tokenHash: Data(hash.readableBytesView),
                profile: OwnTracksProfile(device: device, user: user, name: name, group: group, key: key))
        }
        return nil
    }

    public func ownTracksLocations(device: String, from: Date, to: Date, limit: Int?) async throws -> [OwnTracksLocation] {
        let order = limit == nil ? "ASC" : "DESC"
        let rows = try await client.query(
            """
            SELECT l.id, l.t, l.lat, l.lon, l.acc, l.alt, l.speed, l.course, l.trigger, l.dwell, l.received_at,
                o.tid, o.topic, o.batt, o.bs, o.conn, o.ssid, o.bssid, o.message
            FROM location l LEFT JOIN owntracks_location o ON o.device_id = l.device_id AND o.id = l.id
            WHERE l.device_id = \(device) AND l.t >= \(from.timeIntervalSince1970) AND l.t < \(to.timeIntervalSince1970)
            ORDER BY l.t \(unescaped: order), l.id \(unescaped: order) LIMIT \(limit)
            """, logger: logger)
        var locations: [OwnTracksLocation] = []
        let shape = (
            UUID, Double, Double, Double, Double, Double?, Double?, Double?, String, Double, Double, String?, String?, Int?, Int?, String?,
            String?, String?, String?
        ).self
        for try await row in rows.decode(shape) {
            let (
                id, t, lat, lon, acc, alt, speed, course, trigger, dwell, received, tid, topic, battery, status, connectivity, ssid, bssid,
                message
            ) = row
            let fields = message.map {
                OwnTracksFields(
                    tid: tid, topic: topic, battery: battery, batteryStatus: status, connectivity: connectivity, ssid: ssid, bssid: bssid,
                    message: $0)
            }
            locations.append(
                OwnTracksLocation(
                    record: Self.record((id, t, lat, lon, acc, alt, speed, course, trigger, dwell)), fields: fields,
                    receivedAt: Date(timeIntervalSince1970: received)))
        }
        return locations
    }

    public func lastMessage(_ type: String, device: String) async throws -> DeviceMessage? {
        let rows = try await client.query(
            "SELECT type, body, received_at FROM message WHERE device_id = \(device) AND type = \(type) ORDER BY seq DESC LIMIT 1",
            logger: logger)
        for try await (type, body, received) in rows.decode((String, String, Double).self) {
            return DeviceMessage(type: type, body: body, receivedAt: Date(timeIntervalSince1970: received))
        }
        return nil
    }
}
