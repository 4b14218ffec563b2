import Foundation
import PostgresNIO

/// The PostgreSQL schema, as versioned migrations applied in order under an advisory lock, so any
/// number of instances may start at once.
extension PostgresTrackStorage {
    public func migrate(at date: Date) async throws {
        try await migrate(upTo: Self.migrationCount, at: date)
    }

    /// Applies the migrations up to and including version `last`: all of them, or the schema an
    /// earlier server left, for tests of an upgrade.
    func migrate(upTo last: Int, at date: Date) async throws {
        try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7265736)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)",
                logger: logger)
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM schema_version", logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            for (index, statements) in Self.migrations(upgradedAt: applied.isEmpty ? nil : date).prefix(last).enumerated()
            where !applied.contains(index + 1) {
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.query(
                    "INSERT INTO schema_version VALUES (\(index + 1), \(date.timeIntervalSince1970))", logger: logger)
            }
        }
    }

    public func checkMigrated() async throws {
        var applied = 0
        let exists = try await client.query("SELECT to_regclass('schema_version') IS NOT NULL", logger: logger).decode(Bool.self)
        for try await exists in exists where exists {
            let rows = try await client.query(
                "SELECT count(*) FROM schema_version WHERE version <= \(Self.migrationCount)", logger: logger)
            for try await count in rows.decode(Int.self) { applied = count }
        }
        guard applied == Self.migrationCount else {
            throw ServerError.usage(
                "the PostgreSQL database is not migrated to this server's schema; run a command that writes (such as `serve`) once first")
        }
    }

    /// Versioned migrations, applied in order; never edit one that has shipped. `upgradedAt`: when
    /// the database, which has migrations an earlier server applied, is upgraded (`nil` for a new one).
    private static func migrations(upgradedAt: Date?) -> [[String]] {
        [
            schemaV1, schemaV2, schemaV3, schemaV4, schemaV5, schemaV6OwnTracks, schemaV7OwnTracksOrderedIDs(upgradedAt: upgradedAt),
            schemaV8PartitionMonth,
        ]
    }

    /// How many versions ``migrations(upgrading:)`` has.
    private static let migrationCount = migrations(upgradedAt: nil).count

    /// `whereabouts_location_partition` picks the month of the whole second at or before `at`, as the
    /// partition bounds route the row (``LocationPartitions/month(epochSeconds:)`` likewise), where
    /// version 5's `to_timestamp(at)` rounded to the microsecond: a time in the last half microsecond
    /// of a month made the next month's partition, and its row fitted none.
    private static let schemaV8PartitionMonth = [
        """
        CREATE OR REPLACE FUNCTION whereabouts_location_partition(at DOUBLE PRECISION) RETURNS text LANGUAGE plpgsql AS $$
        DECLARE
            first_day timestamp := date_trunc('month', to_timestamp(floor(at)) AT TIME ZONE 'UTC');
            partition_name text := 'location_p' || to_char(first_day, 'YYYYMM');
        BEGIN
            IF to_regclass(partition_name) IS NULL THEN
                EXECUTE format('CREATE TABLE %I PARTITION OF location FOR VALUES FROM (%s) TO (%s)', partition_name,
                    extract(epoch FROM first_day), extract(epoch FROM first_day + interval '1 month'));
            END IF;
            RETURN partition_name;
        END $$
        """
    ]

    /// Partitions `location` by month of its timestamp, keeping every row: the old table is renamed,
    /// the partitioned one created with a partition for each month that holds rows, the rows copied
    /// and their identities recorded in `location_identity`, which keeps (device, id) unique across
    /// partitions (a unique index of a partitioned table must hold the partition key). Also command
    /// leases, logins, and indexes for retention by age.
    private static let schemaV5 = [
        "ALTER TABLE location RENAME TO location_unpartitioned",
        "ALTER TABLE location_unpartitioned RENAME CONSTRAINT location_pkey TO location_unpartitioned_pkey",
        "ALTER INDEX location_time RENAME TO location_unpartitioned_time",
        """
        CREATE TABLE location (
            device_id TEXT NOT NULL, id UUID NOT NULL, t DOUBLE PRECISION NOT NULL, lat DOUBLE PRECISION NOT NULL,
            lon DOUBLE PRECISION NOT NULL, acc DOUBLE PRECISION NOT NULL, alt DOUBLE PRECISION, speed DOUBLE PRECISION,
            course DOUBLE PRECISION, trigger TEXT NOT NULL, dwell DOUBLE PRECISION NOT NULL, received_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (device_id, t, id)
        ) PARTITION BY RANGE (t)
        """,
        """
        CREATE TABLE location_identity (
            device_id TEXT NOT NULL, id UUID NOT NULL, t DOUBLE PRECISION NOT NULL, PRIMARY KEY (device_id, id)
        )
        """,
        "CREATE INDEX location_identity_age ON location_identity (t)",
        """
        CREATE FUNCTION whereabouts_location_partition(at DOUBLE PRECISION) RETURNS text LANGUAGE plpgsql AS $$
        DECLARE
            first_day timestamp := date_trunc('month', to_timestamp(at) AT TIME ZONE 'UTC');
            partition_name text := 'location_p' || to_char(first_day, 'YYYYMM');
        BEGIN
            IF to_regclass(partition_name) IS NULL THEN
                EXECUTE format('CREATE TABLE %I PARTITION OF location FOR VALUES FROM (%s) TO (%s)', partition_name,
                    extract(epoch FROM first_day), extract(epoch FROM first_day + interval '1 month'));
            END IF;
            RETURN partition_name;
        END $$
        """,
        """
        SELECT whereabouts_location_partition(min(t)) FROM location_unpartitioned
        GROUP BY date_trunc('month', to_timestamp(t) AT TIME ZONE 'UTC')
        """,
        """
        INSERT INTO location (device_id, id, t, lat, lon, acc, alt, speed, course, trigger, dwell, received_at)
        SELECT device_id, id, t, lat, lon, acc, alt, speed, course, trigger, dwell, received_at FROM location_unpartitioned
        """,
        "INSERT INTO location_identity (device_id, id, t) SELECT device_id, id, t FROM location_unpartitioned",
        "DROP TABLE location_unpartitioned",
        "ALTER TABLE command ADD COLUMN leased_until DOUBLE PRECISION",
        """
        CREATE TABLE session (
            id_hash BYTEA PRIMARY KEY, device_id TEXT, token_hash BYTEA NOT NULL, created_at DOUBLE PRECISION NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL
        )
        """,
        "CREATE INDEX session_device ON session (device_id)",
        "CREATE INDEX event_age ON event (t)",
        "CREATE INDEX message_age ON message (received_at)",
    ]

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
}
