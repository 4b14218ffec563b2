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
    let logger: Logger
    /// The months whose partition of `location` this process knows exists.
    let partitions = LocationPartitions()
    /// `/pub`'s location writes, committed in groups (``ingestOwnTracksTakingCommands(_:fields:account:at:)``).
    let ownTracksWrites = PostgresGroupCommit<OwnTracksWrite, (counts: IngestCounts, commands: [ServerCommand])>(limit: 500)
    /// The batch API's writes, committed in groups of up to 5000 locations
    /// (``ingest(_:device:tokenHash:acknowledging:at:lease:)``).
    let batchWrites = PostgresGroupCommit<BatchWrite, (counts: IngestCounts, commands: [DeviceCommand])>(limit: 5000) {
        max($0.records.count, 1)
    }

    /// Creates the storage; call ``run()`` (or add ``client`` to a service group) before use.
    /// - Throws: ``ServerError/usage(_:)`` when `sslrootcert` cannot be read as PEM certificates.
    public init(_ settings: PostgresSettings, logger: Logger) throws {
        client = PostgresClient(configuration: try settings.clientConfiguration(), backgroundLogger: logger)
        self.logger = logger
    }

    /// Runs the connection pool until cancelled.
    public func run() async { await client.run() }

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
        try await Self.tokenHashes(in: client.query(Self.tokenHashQuery([device], lock: false), logger: logger))[device]
    }

    /// The token digests of `devices`; with `lock`, their `device` rows locked for share until the transaction ends.
    static func tokenHashQuery(_ devices: [String], lock: Bool) -> PostgresQuery {
        "SELECT id, token_hash FROM device WHERE id = ANY(\(devices)::text[]) ORDER BY id \(unescaped: lock ? "FOR SHARE" : "")"
    }

    /// The digests in `rows` of ``tokenHashQuery(_:lock:)``, by device.
    static func tokenHashes(in rows: PostgresRowSequence) async throws -> [String: Data] {
        var hashes: [String: Data] = [:]
        for try await (device, buffer) in rows.decode((String, ByteBuffer).self) { hashes[device] = Data(buffer.readableBytesView) }
        return hashes
    }

    public func devices() async throws -> [DeviceInfo] {
        let rows = try await client.query(
            """
            SELECT d.id, d.created_at, (SELECT count(*) FROM location l WHERE l.device_id = d.id),
                (SELECT max(t) FROM location l WHERE l.device_id = d.id)
            FROM device d ORDER BY d.id COLLATE "C"
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

    /// Stores the first record of each id in one statement: the ids go into `location_identity`
    /// (sorted, so concurrent batches lock them in one order and never deadlock), and only those it
    /// took go into `location`. A batch racing another with the same ids, on any instance, waits on
    /// the identity's unique index and then counts them as duplicates.
    public func ingest(_ records: [LocationRecord], device: String, at date: Date) async throws -> IngestCounts {
        guard !records.isEmpty else { return IngestCounts() }
        return try await withPartitions(for: records) {
            try await transaction { connection in
                try await insert(records, device: device, at: date, on: connection)
            }
        }
    }

    /// Runs `body` in a transaction, as `PostgresClient.withTransaction` does, but throws the error
    /// `body` threw (once the transaction is rolled back) rather than PostgresNIO's wrapper of it, so
    /// callers can tell a missing partition, a changed account or a taken id apart. A failed rollback
    /// keeps the wrapper, which names both errors.
    func transaction<T>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
        do {
            return try await client.withTransaction(logger: logger, body)
        } catch let error as PostgresTransactionError where error.rollbackError == nil {
            throw error.closureError ?? error
        }
    }

    /// Runs `write`, which inserts `records`, once their months' partitions exist.
    func withPartitions<T>(for records: [LocationRecord], _ write: () async throws -> T) async throws -> T {
        let times = records.map { $0.fix.timestamp.timeIntervalSince1970 }
        try await ensurePartitions(for: times)
        do {
            return try await write()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23514" {
            // No partition for a row: another instance pruned a month this one knew; learn again.
            partitions.forget()
            try await ensurePartitions(for: times)
            return try await write()
        }
    }

    /// Inserts `records` in `connection`'s transaction; a record already stored (or repeated in the
    /// batch) is a duplicate, whose dwell grows to the longest sent and whose position becomes the
    /// finest sent (see ``TrackStorage``).
    func insert(_ records: [LocationRecord], device: String, at date: Date, on connection: PostgresConnection) async throws
        -> IngestCounts
    {
        let rows = records.map { LocationRow(device: device, record: $0, received: date) }
        let accepted = try await insert(rows, on: connection).count
        return IngestCounts(accepted: accepted, duplicate: records.count - accepted)
    }

    /// Inserts `rows`, of any devices, in one statement in `connection`'s transaction and returns the
    /// keys it stored: the first row of each (device, id) not stored before. The others are
    /// duplicates, each stored row then made the best of it and them (``best(_:)``).
    func insert(_ rows: [LocationRow], on connection: PostgresConnection) async throws -> Set<LocationRow.Key> {
        var seen = Set<LocationRow.Key>()
        let firsts = rows.filter { seen.insert($0.key).inserted }
        let inserted = try await connection.execute(Prepared<InsertLocations>(Self.insertQuery(firsts)), logger: logger)
        var accepted = Set<LocationRow.Key>()
        for try await row in inserted {
            let (device, id) = try row.decode((String, UUID).self)
            accepted.insert(LocationRow.Key(device: device, id: id))
        }
        if accepted.count < rows.count { try await improve(rows, on: connection) }
        return accepted
    }

    /// The statement of ``insert(_:on:)`` for `firsts`, one row per key.
    static func insertQuery(_ firsts: [LocationRow]) -> PostgresQuery {
        """
        WITH u AS (
            SELECT * FROM unnest(\(columnsOf: firsts)) AS u(\(unescaped: locationColumns))
        ), \(unescaped: storing)
        SELECT device_id, id FROM stored
        """
    }

    /// Two CTEs that store the locations of a relation `u`, one row per key, with
    /// ``locationColumns`` (`alt`, `speed` and `course` NaN or NULL when missing): `taken`, the ids
    /// they took in `location_identity`, and `stored`, the keys (`device_id`, `id`) of the rows they
    /// added to `location`.
    static let storing = """
        taken AS (
            INSERT INTO location_identity (device_id, id, t) SELECT u.device_id, u.id, u.t FROM u ORDER BY u.device_id, u.id
            ON CONFLICT (device_id, id) DO NOTHING RETURNING device_id, id
        ), stored AS (
            INSERT INTO location (device_id, id, t, lat, lon, acc, alt, speed, course, trigger, dwell, received_at)
            SELECT u.device_id, u.id, u.t, u.lat, u.lon, u.acc, NULLIF(u.alt, 'NaN'), NULLIF(u.speed, 'NaN'),
                NULLIF(u.course, 'NaN'), u.trigger, u.dwell, u.received
            FROM u JOIN taken USING (device_id, id) RETURNING device_id, id
        )
        """

    /// Makes each stored row of `rows`' keys the best of it and them (``best(_:)``, ``ResendRule``).
    func improve(_ rows: [LocationRow], on connection: PostgresConnection) async throws {
        let best = Array(Self.best(rows).values)
        try await connection.query(
            """
            UPDATE location l SET \(unescaped: Self.improvement)
            FROM unnest(\(columnsOf: best)) AS u(\(unescaped: Self.locationColumns))
            JOIN location_identity i ON i.device_id = u.device_id AND i.id = u.id
            WHERE l.device_id = u.device_id AND l.t = i.t AND l.id = u.id AND \(unescaped: Self.improves)
            """, logger: logger)
    }

    /// ``ResendRule``'s `SET` list, the resent copy in `u` (NaN for a missing altitude, speed or course).
    private static let improvement = ResendRule.assignments(
        stored: { "l.\($0)" }, resent: resentColumn, greatest: "GREATEST", least: "LEAST")
    /// ``ResendRule``'s condition for a stored row `l` and a resent copy `u`.
    private static let improves = ResendRule.improves(stored: { "l.\($0)" }, resent: resentColumn)

    /// A column of the resent copy `u`, where NaN stands for a missing value.
    private static func resentColumn(_ column: String) -> String {
        ["alt", "speed", "course"].contains(column) ? "NULLIF(u.\(column), 'NaN')" : "u.\(column)"
    }

    /// The best of each key's copies in `rows` (``ResendRule``).
    private static func best(_ rows: [LocationRow]) -> [LocationRow.Key: LocationRow] {
        var best: [LocationRow.Key: LocationRow] = [:]
        for row in rows {
            guard var kept = best[row.key] else {
                best[row.key] = row
                continue
            }
            kept.record = ResendRule.merged(kept.record, row.record)
            best[row.key] = kept
        }
        return best
    }

    /// Creates the monthly partitions `times` need that this process has not seen, in a transaction
    /// of their own under an advisory lock, so instances never race to create one.
    private func ensurePartitions(for times: [Double]) async throws {
        let missing = partitions.unknown(times)
        guard !missing.isEmpty else { return }
        try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.partitionLock))", logger: logger)
            for (_, time) in missing { try await connection.query("SELECT whereabouts_location_partition(\(time))", logger: logger) }
        }
        partitions.insert(missing.map(\.month))
    }

    /// The advisory lock under which partitions are created and dropped.
    static let partitionLock: Int64 = 7_265_737

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
    typealias RecordRow = (UUID, Double, Double, Double, Double, Double?, Double?, Double?, String, Double)

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

    /// Ordered by `id` byte by byte, as SQLite orders it, whatever the database's collation.
    public func regions(device: String) async throws -> [WireRegion] {
        let rows = try await client.query(
            "SELECT id, lat, lon, radius FROM region WHERE device_id = \(device) ORDER BY id COLLATE \"C\"", logger: logger)
        var regions: [WireRegion] = []
        for try await (id, lat, lon, radius) in rows.decode((String, Double, Double, Double).self) {
            regions.append(WireRegion(id: id, latitude: lat, longitude: lon, radius: radius))
        }
        return regions
    }

    public func saveMessage(_ type: String, body: String, device: String, at date: Date) async throws {
        try await client.query(
            "INSERT INTO message (device_id, type, body, received_at) VALUES (\(device), \(type), \(body), \(date.timeIntervalSince1970))",
            logger: logger)
    }

    public func messages(device: String) async throws -> [DeviceMessage] {
        let rows = try await client.query(
            "SELECT type, body, received_at FROM message WHERE device_id = \(device) ORDER BY seq", logger: logger)
        var messages: [DeviceMessage] = []
        for try await (type, body, received) in rows.decode((String, String, Double).self) {
            messages.append(DeviceMessage(type: type, body: body, receivedAt: Date(timeIntervalSince1970: received)))
        }
        return messages
    }

    public func queue(_ queued: DeviceCommand, device: String, at date: Date) async throws {
        let body = String(decoding: try JSONEncoder().encode(queued.command), as: UTF8.self)
        try await client.query(
            "INSERT INTO command (device_id, id, body, created_at) VALUES (\(device), \(queued.id), \(body), \(date.timeIntervalSince1970))",
            logger: logger)
    }

    public func ping() async throws {
        try await client.query("SELECT 1", logger: logger)
    }

    public func close() async throws {}

    static func record(_ row: RecordRow) -> LocationRecord {
        let (id, t, lat, lon, acc, alt, speed, course, trigger, dwell) = row
        return .restored(
            id: id, latitude: lat, longitude: lon, accuracy: acc, altitude: alt, speed: speed, course: course,
            timestamp: Date(timeIntervalSince1970: t), trigger: RecordTrigger(rawValue: trigger) ?? .policy, dwell: dwell)
    }
}
