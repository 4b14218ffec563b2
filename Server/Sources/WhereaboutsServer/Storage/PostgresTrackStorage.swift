import Foundation
import Logging
import PostgresNIO
import WhereaboutsCore

/// ``TrackStorage`` on PostgreSQL through PostgresNIO. Batches go in as one `INSERT … SELECT FROM
/// unnest(…)` with bound arrays; every value is a bound parameter.
public final class PostgresTrackStorage: TrackStorage {
    public var kind: String { "postgres" }
    /// The connection pool; it must be running (``run()``) while the storage is used.
    public let client: PostgresClient
    private let logger: Logger

    /// Creates the storage; call ``run()`` (or add ``client`` to a service group) before use.
    public init(host: String, port: Int, user: String, password: String?, database: String, logger: Logger) {
        let configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: .disable)
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Runs the connection pool until cancelled.
    public func run() async { await client.run() }

    public func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7265736)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)",
                logger: logger)
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM schema_version", logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            for (index, statements) in Self.migrations.enumerated() where !applied.contains(index + 1) {
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.query("INSERT INTO schema_version VALUES (\(index + 1), \(Date().timeIntervalSince1970))", logger: logger)
            }
        }
    }

    /// Versioned migrations, applied in order; never edit one that has shipped.
    private static let migrations = [schemaV1, schemaV2, schemaV3, schemaV4]

    private static let schemaV4 = [
        "ALTER TABLE command ADD COLUMN id TEXT",
        "UPDATE command SET id = md5(random()::text || seq::text) WHERE id IS NULL",
        "ALTER TABLE command ALTER COLUMN id SET NOT NULL",
        "CREATE UNIQUE INDEX command_id ON command (device_id, id)",
        "ALTER TABLE event ADD COLUMN initial BOOLEAN NOT NULL DEFAULT false",
    ]

    private static let schemaV3 = [
        """
        CREATE TABLE message (
            seq BIGSERIAL PRIMARY KEY, device_id TEXT NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL,
            received_at DOUBLE PRECISION NOT NULL
        )
        """,
        "CREATE INDEX message_device ON message (device_id, seq)",
    ]

    private static let schemaV2 = [
        """
        CREATE TABLE region (
            device_id TEXT NOT NULL, id TEXT NOT NULL, lat DOUBLE PRECISION NOT NULL, lon DOUBLE PRECISION NOT NULL,
            radius DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (device_id, id)
        )
        """
    ]

    private static let schemaV1 = [
        "CREATE TABLE device (id TEXT PRIMARY KEY, token_hash BYTEA NOT NULL, created_at DOUBLE PRECISION NOT NULL)",
        """
        CREATE TABLE location (
            device_id TEXT NOT NULL, id UUID NOT NULL, t DOUBLE PRECISION NOT NULL, lat DOUBLE PRECISION NOT NULL,
            lon DOUBLE PRECISION NOT NULL, acc DOUBLE PRECISION NOT NULL, alt DOUBLE PRECISION, speed DOUBLE PRECISION,
            course DOUBLE PRECISION, trigger TEXT NOT NULL, dwell DOUBLE PRECISION NOT NULL, received_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (device_id, id)
        )
        """,
        "CREATE INDEX location_time ON location (device_id, t, id)",
        """
        CREATE TABLE event (
            device_id TEXT NOT NULL, id UUID NOT NULL, region_id TEXT NOT NULL, kind TEXT NOT NULL, t DOUBLE PRECISION NOT NULL,
            lat DOUBLE PRECISION, lon DOUBLE PRECISION, received_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (device_id, id)
        )
        """,
        "CREATE INDEX event_time ON event (device_id, t)",
        "CREATE TABLE command (seq BIGSERIAL PRIMARY KEY, device_id TEXT NOT NULL, body TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL)",
    ]

    public func addDevice(id: String, tokenHash: Data, at date: Date) async throws {
        let rows = try await client.query(
            """
            INSERT INTO device (id, token_hash, created_at) VALUES (\(id), \(ByteBuffer(bytes: tokenHash)), \(date.timeIntervalSince1970))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """, logger: logger)
        var inserted = false
        for try await _ in rows { inserted = true }
        if !inserted { throw ServerError.deviceExists(id) }
    }

    public func tokenHash(device: String) async throws -> Data? {
        let rows = try await client.query("SELECT token_hash FROM device WHERE id = \(device)", logger: logger)
        for try await buffer in rows.decode(ByteBuffer.self) { return Data(buffer.readableBytesView) }
        return nil
    }

    public func devices() async throws -> [DeviceInfo] {
        let rows = try await client.query(
            """
            SELECT d.id, d.created_at, (SELECT count(*) FROM location l WHERE l.device_id = d.id),
                (SELECT max(t) FROM location l WHERE l.device_id = d.id)
            FROM device d ORDER BY d.id
            """, logger: logger)
        var devices: [DeviceInfo] = []
        for try await (id, created, count, last) in rows.decode((String, Double, Int64, Double?).self) {
            devices.append(
                DeviceInfo(
                    id: id, createdAt: Date(timeIntervalSince1970: created), locations: Int(count),
                    lastSeen: last.map(Date.init(timeIntervalSince1970:))))
        }
        return devices
    }

    public func ingest(_ records: [LocationRecord], device: String, at date: Date) async throws -> IngestCounts {
        guard !records.isEmpty else { return IngestCounts() }
        let ids = records.map(\.id)
        let t = records.map { $0.fix.timestamp.timeIntervalSince1970 }
        let lat = records.map(\.fix.coordinate.latitude), lon = records.map(\.fix.coordinate.longitude)
        let acc = records.map(\.fix.horizontalAccuracy)
        let alt = records.map { $0.fix.altitude ?? .nan }, speed = records.map { $0.fix.speed ?? .nan }
        let course = records.map { $0.fix.course ?? .nan }
        let trigger = records.map(\.trigger.rawValue), dwell = records.map(\.dwell)
        let received = date.timeIntervalSince1970
        return try await client.withTransaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                INSERT INTO location (device_id, id, t, lat, lon, acc, alt, speed, course, trigger, dwell, received_at)
                SELECT \(device), u.id, u.t, u.lat, u.lon, u.acc, NULLIF(u.alt, 'NaN'), NULLIF(u.speed, 'NaN'),
                    NULLIF(u.course, 'NaN'), u.trigger, u.dwell, \(received)
                FROM unnest(\(ids)::uuid[], \(t)::float8[], \(lat)::float8[], \(lon)::float8[], \(acc)::float8[], \(alt)::float8[],
                    \(speed)::float8[], \(course)::float8[], \(trigger)::text[], \(dwell)::float8[])
                    AS u(id, t, lat, lon, acc, alt, speed, course, trigger, dwell)
                ON CONFLICT (device_id, id) DO NOTHING RETURNING id
                """, logger: logger)
            var accepted = 0
            for try await _ in rows { accepted += 1 }
            if accepted < records.count {
                try await connection.query(
                    """
                    UPDATE location SET dwell = u.dwell FROM unnest(\(ids)::uuid[], \(dwell)::float8[]) AS u(id, dwell)
                    WHERE location.device_id = \(device) AND location.id = u.id AND location.dwell < u.dwell
                    """, logger: logger)
            }
            return IngestCounts(accepted: accepted, duplicate: records.count - accepted)
        }
    }

    public func ingest(_ events: [ReceivedEvent], device: String, at date: Date) async throws -> IngestCounts {
        guard !events.isEmpty else { return IngestCounts() }
        let rows = try await client.query(
            """
            INSERT INTO event (device_id, id, region_id, kind, t, lat, lon, received_at, initial)
            SELECT \(device), u.id, u.region, u.kind, u.t, NULLIF(u.lat, 'NaN'), NULLIF(u.lon, 'NaN'), \(date.timeIntervalSince1970), u.initial
            FROM unnest(\(events.map(\.id))::uuid[], \(events.map(\.regionID))::text[], \(events.map(\.kind.rawValue))::text[],
                \(events.map { $0.timestamp.timeIntervalSince1970 })::float8[], \(events.map { $0.latitude ?? .nan })::float8[],
                \(events.map { $0.longitude ?? .nan })::float8[], \(events.map(\.initial))::bool[]) AS u(id, region, kind, t, lat, lon, initial)
            ON CONFLICT (device_id, id) DO NOTHING RETURNING id
            """, logger: logger)
        var accepted = 0
        for try await _ in rows { accepted += 1 }
        return IngestCounts(accepted: accepted, duplicate: events.count - accepted)
    }

    private static let columns = "id, t, lat, lon, acc, alt, speed, course, trigger, dwell"
    private typealias RecordRow = (UUID, Double, Double, Double, Double, Double?, Double?, Double?, String, Double)

    public func last(device: String) async throws -> LocationRecord? {
        let rows = try await client.query(
            "SELECT \(unescaped: Self.columns) FROM location WHERE device_id = \(device) ORDER BY t DESC, id DESC LIMIT 1", logger: logger)
        for try await row in rows.decode(RecordRow.self) { return Self.record(row) }
        return nil
    }

    public func history(device: String, from: Date, to: Date, page: Int, _ body: ([LocationRecord]) async throws -> Void) async throws {
        var cursor: (Double, UUID)? = nil
        while true {
            let query: PostgresQuery
            if let (t, id) = cursor {
                query = """
                    SELECT \(unescaped: Self.columns) FROM location
                    WHERE device_id = \(device) AND (t, id) > (\(t), \(id)) AND t < \(to.timeIntervalSince1970) ORDER BY t, id LIMIT \(page)
                    """
            } else {
                query = """
                    SELECT \(unescaped: Self.columns) FROM location
                    WHERE device_id = \(device) AND t >= \(from.timeIntervalSince1970) AND t < \(to.timeIntervalSince1970)
                    ORDER BY t, id LIMIT \(page)
                    """
            }
            var records: [LocationRecord] = []
            for try await row in try await client.query(query, logger: logger).decode(RecordRow.self) { records.append(Self.record(row)) }
            guard let last = records.last else { return }
            cursor = (last.fix.timestamp.timeIntervalSince1970, last.id)
            try await body(records)
            if records.count < page { return }
        }
    }

    public func events(device: String, from: Date, to: Date) async throws -> [ReceivedEvent] {
        let rows = try await client.query(
            """
            SELECT id, region_id, kind, t, lat, lon, initial FROM event
            WHERE device_id = \(device) AND t >= \(from.timeIntervalSince1970) AND t < \(to.timeIntervalSince1970) ORDER BY t, id
            """, logger: logger)
        var events: [ReceivedEvent] = []
        for try await (id, region, kind, t, lat, lon, initial) in rows.decode((UUID, String, String, Double, Double?, Double?, Bool).self) {
            events.append(
                ReceivedEvent(
                    id: id, regionID: region, kind: RegionEventKind(rawValue: kind) ?? .enter, timestamp: Date(timeIntervalSince1970: t),
                    latitude: lat, longitude: lon, initial: initial))
        }
        return events
    }

    public func saveRegions(_ regions: [WireRegion], device: String, at date: Date) async throws {
        guard !regions.isEmpty else { return }
        // One statement may not update a row twice: keep the last region of each id, as SQLite does.
        var lastByID: [String: Int] = [:]
        for (index, region) in regions.enumerated() { lastByID[region.id] = index }
        let regions = regions.enumerated().filter { lastByID[$0.element.id] == $0.offset }.map(\.element)
        try await client.query(
            """
            INSERT INTO region (device_id, id, lat, lon, radius, updated_at)
            SELECT \(device), u.id, u.lat, u.lon, u.radius, \(date.timeIntervalSince1970)
            FROM unnest(\(regions.map(\.id))::text[], \(regions.map(\.latitude))::float8[], \(regions.map(\.longitude))::float8[],
                \(regions.map(\.radius))::float8[]) AS u(id, lat, lon, radius)
            ON CONFLICT (device_id, id) DO UPDATE SET lat = excluded.lat, lon = excluded.lon, radius = excluded.radius, updated_at = excluded.updated_at
            """, logger: logger)
    }

    public func regions(device: String) async throws -> [WireRegion] {
        let rows = try await client.query("SELECT id, lat, lon, radius FROM region WHERE device_id = \(device) ORDER BY id", logger: logger)
        var regions: [WireRegion] = []
        for try await (id, lat, lon, radius) in rows.decode((String, Double, Double, Double).self) {
            regions.append(WireRegion(id: id, latitude: lat, longitude: lon, radius: radius))
        }
        return regions
    }

    public func saveMessage(_ type: String, body: String, device: String, at date: Date) async throws {
        try await client.query(
            "INSERT INTO message (device_id, type, body, received_at) VALUES (\(device), \(type), \(body), \(date.timeIntervalSince1970))", logger: logger)
    }

    public func messages(device: String) async throws -> [DeviceMessage] {
        let rows = try await client.query("SELECT type, body, received_at FROM message WHERE device_id = \(device) ORDER BY seq", logger: logger)
        var messages: [DeviceMessage] = []
        for try await (type, body, received) in rows.decode((String, String, Double).self) {
            messages.append(DeviceMessage(type: type, body: body, receivedAt: Date(timeIntervalSince1970: received)))
        }
        return messages
    }

    public func queue(_ command: ServerCommand, device: String, at date: Date) async throws -> DeviceCommand {
        let queued = DeviceCommand(id: UUID().uuidString.lowercased(), command: command)
        let body = String(decoding: try JSONEncoder().encode(command), as: UTF8.self)
        try await client.query(
            "INSERT INTO command (device_id, id, body, created_at) VALUES (\(device), \(queued.id), \(body), \(date.timeIntervalSince1970))",
            logger: logger)
        return queued
    }

    public func commands(device: String, acknowledging acknowledged: [String]) async throws -> [DeviceCommand] {
        try await client.withTransaction(logger: logger) { connection in
            if !acknowledged.isEmpty {
                try await connection.query("DELETE FROM command WHERE device_id = \(device) AND id = ANY(\(acknowledged)::text[])", logger: logger)
            }
            let rows = try await connection.query("SELECT id, body FROM command WHERE device_id = \(device) ORDER BY seq", logger: logger)
            var commands: [DeviceCommand] = []
            for try await (id, body) in rows.decode((String, String).self) {
                if let command = try? JSONDecoder().decode(ServerCommand.self, from: Data(body.utf8)) {
                    commands.append(DeviceCommand(id: id, command: command))
                }
            }
            return commands
        }
    }

    public func takeCommands(device: String) async throws -> [ServerCommand] {
        let rows = try await client.query(
            "DELETE FROM command WHERE device_id = \(device) RETURNING seq, body", logger: logger)
        var bodies: [(Int64, String)] = []
        for try await row in rows.decode((Int64, String).self) { bodies.append(row) }
        return bodies.sorted { $0.0 < $1.0 }.compactMap { try? JSONDecoder().decode(ServerCommand.self, from: Data($0.1.utf8)) }
    }

    public func ping() async throws {
        try await client.query("SELECT 1", logger: logger)
    }

    public func close() async throws {}

    private static func record(_ row: RecordRow) -> LocationRecord {
        let (id, t, lat, lon, acc, alt, speed, course, trigger, dwell) = row
        return .restored(
            id: id, latitude: lat, longitude: lon, accuracy: acc, altitude: alt, speed: speed, course: course,
            timestamp: Date(timeIntervalSince1970: t), trigger: RecordTrigger(rawValue: trigger) ?? .policy, dwell: dwell)
    }
}
