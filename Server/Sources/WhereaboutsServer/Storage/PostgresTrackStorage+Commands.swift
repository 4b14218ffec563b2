import Foundation
import PostgresNIO
import WhereaboutsCore

/// Commands under leases, so that instances sharing the database send each one with one answer at
/// a time: rows are claimed with `FOR UPDATE SKIP LOCKED`, and a row another answer holds, or has
/// leased, is passed over.
extension PostgresTrackStorage {
    public func ingest(
        _ records: [LocationRecord], device: String, tokenHash: Data, acknowledging acknowledged: [String], at date: Date, lease: Double
    ) async throws -> (counts: IngestCounts, commands: [DeviceCommand]) {
        try await withPartitions(for: records) {
            try await transaction { connection in
                let stored = try await Self.tokenHash(in: connection.query(Self.tokenHashQuery(device, lock: true), logger: logger))
                guard stored == tokenHash else { throw CredentialChanged(device: device) }
                let counts = records.isEmpty ? IngestCounts() : try await insert(records, device: device, at: date, on: connection)
                if !acknowledged.isEmpty {
                    try await connection.query(
                        "DELETE FROM command WHERE device_id = \(device) AND id = ANY(\(acknowledged)::text[])", logger: logger)
                }
                let now = date.timeIntervalSince1970
                let rows = try await connection.query(
                    """
                    UPDATE command SET leased_until = \(now + lease)
                    WHERE seq IN (
                        SELECT seq FROM command WHERE device_id = \(device) AND (leased_until IS NULL OR leased_until <= \(now))
                        FOR UPDATE SKIP LOCKED
                    ) RETURNING seq, id, body
                    """, logger: logger)
                var commands: [(Int64, DeviceCommand)] = []
                for try await (seq, id, body) in rows.decode((Int64, String, String).self) {
                    if let command = try? JSONDecoder().decode(ServerCommand.self, from: Data(body.utf8)) {
                        commands.append((seq, DeviceCommand(id: id, command: command)))
                    }
                }
                return (counts, commands.sorted { $0.0 < $1.0 }.map(\.1))
            }
        }
    }

    public func takeCommands(device: String, at date: Date) async throws -> [ServerCommand] {
        try await Self.commands(client.query(Self.takeQuery(device, at: date), logger: logger))
    }

    /// Deletes the device's commands not under lease at `date`, returning them.
    static func takeQuery(_ device: String, at date: Date) -> PostgresQuery {
        """
        DELETE FROM command WHERE seq IN (
            SELECT seq FROM command WHERE device_id = \(device) AND (leased_until IS NULL OR leased_until <= \(date.timeIntervalSince1970))
            FOR UPDATE SKIP LOCKED
        ) RETURNING seq, body
        """
    }

    /// The commands ``takeQuery(_:at:)`` returned, oldest first.
    static func commands(_ rows: PostgresRowSequence) async throws -> [ServerCommand] {
        var bodies: [(Int64, String)] = []
        for try await row in rows.decode((Int64, String).self) { bodies.append(row) }
        return bodies.sorted { $0.0 < $1.0 }.compactMap { try? JSONDecoder().decode(ServerCommand.self, from: Data($0.1.utf8)) }
    }
}
