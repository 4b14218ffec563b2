import Foundation
import Logging
import PostgresNIO
import WhereaboutsCore

/// Commands under leases, so that instances sharing the database send each one with one answer at
/// a time: rows are claimed with `FOR UPDATE SKIP LOCKED`, and a row another answer holds, or has
/// leased, is passed over.
extension PostgresTrackStorage {
    /// Queued for the next group of batch writes (``commitBatches(_:)``), answered once it has committed.
    public func ingest(
        _ records: [LocationRecord], device: String, tokenHash: Data, acknowledging acknowledged: [String], at date: Date, lease: Double
    ) async throws -> (counts: IngestCounts, commands: [DeviceCommand]) {
        let write = BatchWrite(records: records, device: device, tokenHash: tokenHash, acknowledged: acknowledged, date: date, lease: lease)
        return try await batchWrites.submit(write) { try await self.commitBatches($0) }
    }

    public func takeCommands(device: String, at date: Date) async throws -> [ServerCommand] {
        try await Self.commands(client.query(Self.takeQuery([(device, date)]), logger: logger))[device] ?? []
    }

    /// Deletes the commands of each device not under lease at its date, returning them.
    static func takeQuery(_ devices: [(device: String, date: Date)]) -> PostgresQuery {
        """
        WITH x AS (
            SELECT * FROM unnest(\(devices.map(\.device))::text[], \(devices.map(\.date.timeIntervalSince1970))::float8[]) AS x(device_id, now)
        ) \(unescaped: taking)
        """
    }

    /// The statement that deletes the commands of each device of a relation `x` (`device_id`, `now`)
    /// not under lease at its `now`, returning them (`device_id`, `seq`, `body`).
    static let taking = """
        DELETE FROM command WHERE seq IN (
            SELECT c.seq FROM command c JOIN x ON c.device_id = x.device_id
            WHERE c.leased_until IS NULL OR c.leased_until <= x.now
            FOR UPDATE OF c SKIP LOCKED
        ) RETURNING device_id, seq, body
        """

    /// The commands ``takeQuery(_:)`` returned, by device, oldest first.
    static func commands<Rows: AsyncSequence>(_ rows: Rows) async throws -> [String: [ServerCommand]] where Rows.Element == PostgresRow {
        var taken: [(device: String, seq: Int64, body: String)] = []
        for try await row in rows { taken.append(try row.decode((String, Int64, String).self)) }
        return commands(taken)
    }

    /// The commands of `taken` rows, by device, oldest first; a body that no longer decodes is dropped.
    static func commands(_ taken: [(device: String, seq: Int64, body: String)]) -> [String: [ServerCommand]] {
        Dictionary(grouping: taken, by: \.device).mapValues { rows in
            rows.sorted { $0.seq < $1.seq }.compactMap { try? JSONDecoder().decode(ServerCommand.self, from: Data($0.body.utf8)) }
        }
    }

    /// Leases each device's commands not under lease at its date until its date plus its lease,
    /// returning them by device, oldest first.
    static func lease(_ devices: [(device: String, date: Date, lease: Double)], on connection: PostgresConnection, logger: Logger)
        async throws -> [String: [DeviceCommand]]
    {
        let rows = try await connection.query(
            """
            WITH x AS (
                SELECT * FROM unnest(\(devices.map(\.device))::text[], \(devices.map(\.date.timeIntervalSince1970))::float8[],
                    \(devices.map { $0.date.timeIntervalSince1970 + $0.lease })::float8[]) AS x(device_id, now, until)
            ), picked AS (
                SELECT c.seq, x.until FROM command c JOIN x ON c.device_id = x.device_id
                WHERE c.leased_until IS NULL OR c.leased_until <= x.now
                FOR UPDATE OF c SKIP LOCKED
            )
            UPDATE command SET leased_until = picked.until FROM picked WHERE command.seq = picked.seq
            RETURNING command.device_id, command.seq, command.id, command.body
            """, logger: logger)
        var commands: [String: [(Int64, DeviceCommand)]] = [:]
        for try await (device, seq, id, body) in rows.decode((String, Int64, String, String).self) {
            if let command = try? JSONDecoder().decode(ServerCommand.self, from: Data(body.utf8)) {
                commands[device, default: []].append((seq, DeviceCommand(id: id, command: command)))
            }
        }
        return commands.mapValues { $0.sorted { $0.0 < $1.0 }.map(\.1) }
    }
}
