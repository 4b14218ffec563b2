import Foundation

/// The records a snapshot lists as waiting for upload, kept in memory from the engine's effects so
/// that publishing a snapshot never reads the store: the newest ``limit`` pending records, oldest
/// first.
///
/// Uploads send the oldest pending records first, so while more than ``limit`` records are pending
/// the ones delivered are older than every listed one, and the window stays exact without reading
/// the store again.
public struct PendingWindow: Sendable, Equatable {
    /// At most this many records are listed.
    public let limit: Int
    /// The listed records, oldest first.
    public private(set) var records: [LocationRecord]

    /// A window over `pending` (oldest first), keeping its newest `limit` records.
    public init(pending: [LocationRecord], limit: Int) {
        self.limit = max(0, limit)
        records = Array(pending.suffix(self.limit))
    }

    /// A new pending record.
    public mutating func append(_ record: LocationRecord) {
        records.append(record)
        if records.count > limit { records.removeFirst(records.count - limit) }
    }

    /// The newest record's stay grew: it is listed with its new dwell, back in the window when it had
    /// been delivered (the store makes it pending again so the server learns the longer stay).
    public mutating func update(newest record: LocationRecord) {
        if let last = records.indices.last, records[last].id == record.id {
            records[last] = record
        } else {
            append(record)
        }
    }

    /// Records a server acknowledged or refused, no longer pending.
    public mutating func remove(_ ids: Set<UUID>) {
        guard !ids.isEmpty else { return }
        records.removeAll { ids.contains($0.id) }
    }

    /// The snapshot's report.
    public var report: LocationData.Report { LocationData.Report(pending: records) }
}
