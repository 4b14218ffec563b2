import Foundation
import PostgresNIO
import WhereaboutsCore

/// One `/pub` location waiting for its group's transaction.
struct OwnTracksWrite: Sendable {
    let record: LocationRecord
    let fields: OwnTracksFields
    /// The account the request was authenticated with; the write holds only while it is still the device's.
    let account: OwnTracksAccount
    let date: Date
}

/// One batch API write waiting for its group's transaction.
struct BatchWrite: Sendable {
    let records: [LocationRecord]
    let device: String
    /// The token digest the request was authenticated with; the write holds only while it is still the device's.
    let tokenHash: Data
    let acknowledged: [String]
    let date: Date
    let lease: Double
}

/// The groups of ``PostgresGroupCommit``: each commits many requests' writes, of any devices, with
/// the statements of one. Whatever the group, a request gets the answer it would have got alone,
/// one request after the other: the first copy of a location in the group is the one accepted, the
/// later ones count as duplicates, and a device's due commands go to its first request.
extension PostgresTrackStorage {
    /// Commits `/pub` writes with one statement (``ownTracksGroupQuery(_:)``), atomic in its own
    /// implicit transaction, followed by the improvement of the rows they resent, when some were
    /// stored already (idempotent, so it may commit on its own). The statement has taken the devices'
    /// due commands by then, so an improvement that fails is logged and the group is still answered
    /// (its commands with it) once the `SELECT 1` below proves the statement durable: failing the
    /// group would lose those commands to keep a resent copy's longer dwell or finer position.
    ///
    /// PostgreSQL commits an implicit transaction when it handles the statement's `Sync`, after
    /// sending its rows and `CommandComplete`, where PostgresNIO already ends the query. So the
    /// group ends with a `SELECT 1` on the same connection: PostgreSQL answers it only after that
    /// commit (a commit that fails sends a late error, on which PostgresNIO closes the connection),
    /// and no request is answered before it. Two round trips, where `BEGIN`, the statement and
    /// `COMMIT` took three.
    func commitOwnTracks(_ writes: [OwnTracksWrite]) async throws -> [Result<(counts: IngestCounts, commands: [ServerCommand]), any Error>]
    {
        try await withPartitions(for: writes.map(\.record)) {
            try await client.withConnection { connection in
                var held = Set<Int>()
                var accepted = Set<LocationRow.Key>()
                var took: [(device: String, seq: Int64, body: String)] = []
                for try await row in try await connection.execute(
                    Prepared<CommitOwnTracks>(Self.ownTracksGroupQuery(writes)), logger: logger)
                {
                    switch try GroupOutcome(row) {
                    case .held(let n): held.insert(n)
                    case .stored(let key): accepted.insert(key)
                    case .took(let device, let seq, let body): took.append((device, seq, body))
                    }
                }
                let rows = writes.indices.filter(held.contains).map {
                    LocationRow(device: writes[$0].account.profile.device, record: writes[$0].record, received: writes[$0].date)
                }
                if accepted.count < rows.count {
                    do {
                        try await improve(rows, on: connection)
                    } catch {
                        logger.warning(
                            "could not make \(rows.count - accepted.count) resent /pub locations the best of their copies (\(error)); each keeps the copy stored first"
                        )
                    }
                }
                try await connection.query("SELECT 1", logger: logger)
                let taken = Self.commands(took)
                var answered = Set<String>()
                return writes.enumerated().map { n, write in
                    let device = write.account.profile.device
                    guard held.contains(n) else { return .failure(CredentialChanged(device: device)) }
                    let counts = Self.counts([write.record], device: device, accepted: &accepted)
                    return .success((counts, answered.insert(device).inserted ? taken[device] ?? [] : []))
                }
            }
        }
    }

    /// Commits batch API writes in one transaction: token digests checked (devices locked for
    /// share), locations, acknowledged commands forgotten, then the due commands leased.
    func commitBatches(_ writes: [BatchWrite]) async throws -> [Result<(counts: IngestCounts, commands: [DeviceCommand]), any Error>] {
        try await withPartitions(for: writes.flatMap(\.records)) {
            try await transaction { connection in
                let devices = Array(Set(writes.map(\.device))).sorted()
                let stored = try await Self.tokenHashes(in: connection.query(Self.tokenHashQuery(devices, lock: true), logger: logger))
                let holding = writes.filter { stored[$0.device] == $0.tokenHash }
                let rows = holding.flatMap { write in
                    write.records.map { LocationRow(device: write.device, record: $0, received: write.date) }
                }
                var accepted = try await rows.isEmpty ? [] : insert(rows, on: connection)
                let acknowledged = holding.flatMap { write in write.acknowledged.map { (write.device, $0) } }
                if !acknowledged.isEmpty {
                    try await connection.query(
                        """
                        DELETE FROM command c USING unnest(\(acknowledged.map(\.0))::text[], \(acknowledged.map(\.1))::text[]) AS a(device_id, id)
                        WHERE c.device_id = a.device_id AND c.id = a.id
                        """, logger: logger)
                }
                let due = Self.firstOfEachDevice(holding.map { (device: $0.device, date: $0.date, lease: $0.lease) }, device: \.device)
                let leased = try await due.isEmpty ? [:] : Self.lease(due, on: connection, logger: logger)
                var answered = Set<String>()
                return writes.map { write in
                    guard stored[write.device] == write.tokenHash else { return .failure(CredentialChanged(device: write.device)) }
                    let counts = Self.counts(write.records, device: write.device, accepted: &accepted)
                    return .success((counts, answered.insert(write.device).inserted ? leased[write.device] ?? [] : []))
                }
            }
        }
    }

    /// The counts of one request's `records`: a record is accepted when its key is among those the
    /// group stored and no earlier record claimed it (each claim is removed from `accepted`).
    private static func counts(_ records: [LocationRecord], device: String, accepted: inout Set<LocationRow.Key>) -> IngestCounts {
        let claimed = records.filter { accepted.remove(LocationRow.Key(device: device, id: $0.id)) != nil }.count
        return IngestCounts(accepted: claimed, duplicate: records.count - claimed)
    }

    /// The first of `items` of each device, in order: whose date and lease apply to the device's commands.
    private static func firstOfEachDevice<T>(_ items: [T], device: (T) -> String) -> [T] {
        var seen = Set<String>()
        return items.filter { seen.insert(device($0)).inserted }
    }
}
