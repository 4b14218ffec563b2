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
    /// Commits `/pub` writes in one transaction: accounts checked (devices locked for share), fields,
    /// locations, then the due commands taken.
    func commitOwnTracks(_ writes: [OwnTracksWrite]) async throws -> [Result<(counts: IngestCounts, commands: [ServerCommand]), any Error>]
    {
        try await withPartitions(for: writes.map(\.record)) {
            try await transaction { connection in
                let devices = Array(Set(writes.map(\.account.profile.device))).sorted()
                let stored = try await Self.accounts(
                    in: connection.execute(Prepared<LockedAccounts>(Self.accountQuery(devices, lock: true)), logger: logger))
                let holding = writes.filter { stored[$0.account.profile.device] == $0.account }
                var accepted = Set<LocationRow.Key>()
                var taken: [String: [ServerCommand]] = [:]
                if !holding.isEmpty {
                    let rows = holding.map { LocationRow(device: $0.account.profile.device, record: $0.record, received: $0.date) }
                    let fields = try Self.fieldsQuery(zip(rows, holding).map { ($0.key, $0.record.fix.timestamp, $1.fields) })
                    _ = try await connection.execute(Prepared<SaveFields>(fields), logger: logger)
                    accepted = try await insert(rows, on: connection)
                    let due = Self.firstOfEachDevice(rows.map { (device: $0.device, date: $0.received) }, device: \.device)
                    taken = try await Self.commands(connection.execute(Prepared<TakeCommands>(Self.takeQuery(due)), logger: logger))
                }
                var answered = Set<String>()
                return writes.map { write in
                    let device = write.account.profile.device
                    guard stored[device] == write.account else { return .failure(CredentialChanged(device: device)) }
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
