import Foundation
import GRDB
import WhereaboutsCore

/// What a store holds: records by state, the rejected ones with their reasons, and every drop.
public struct StoreSummary: Sendable, Equatable {
    /// Records per state.
    public var counts: [DeliveryState: Int]
    /// Pending records currently leased to an upload.
    public var leased: Int
    /// Region events stored.
    public var events: Int
    /// Region events not yet acknowledged by a server.
    public var eventsPending: Int
    /// Regions stored.
    public var regions: Int
    /// Server commands not yet acted on.
    public var commands: Int
    /// The rejected records, oldest first (at most ``rejectedListLimit``).
    public var rejected: [RejectedRecord]
    /// The drop log, oldest first.
    public var drops: [DropEntry]
    /// The size of the database file in bytes (pages in use times page size).
    public var bytes: Int

    /// How many rejected records the summary lists.
    public static let rejectedListLimit = 50

    /// All records.
    public var records: Int { counts.values.reduce(0, +) }
}

extension SQLiteLocationStore {
    /// Counts, rejected records and drops, for `whereabouts store inspect` and for apps to show.
    public func summary(now: Date = Date()) throws -> StoreSummary {
        try read { db in
            var counts: [DeliveryState: Int] = [:]
            for state in DeliveryState.allCases { counts[state] = 0 }
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM location GROUP BY state") {
                if let state = RecordCodes.knownDeliveryState(code: row["state"]) { counts[state] = row["n"] }
            }
            let rejected = try Row.fetchAll(
                db, sql: "SELECT uuid, t, reject_status, reject_reason FROM location WHERE state = 2 ORDER BY seq LIMIT ?",
                arguments: [StoreSummary.rejectedListLimit]
            ).map { row in
                RejectedRecord(
                    id: row["uuid"], timestamp: Date(timeIntervalSince1970: row["t"]),
                    rejection: Rejection(status: row["reject_status"] ?? 0, reason: row["reject_reason"] ?? ""))
            }
            let drops = try Row.fetchAll(db, sql: "SELECT * FROM drop_log ORDER BY seq").map { row in
                DropEntry(
                    at: Date(timeIntervalSince1970: row["at"]), reason: row["reason"],
                    state: RecordCodes.deliveryState(code: row["state"]), count: row["count"])
            }
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let freePages = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return StoreSummary(
                counts: counts,
                leased: try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM location WHERE state = 0 AND lease > ?", arguments: [now.timeIntervalSince1970]) ?? 0,
                events: try Int.fetchOne(db, sql: "SELECT count(*) FROM event") ?? 0,
                eventsPending: try Int.fetchOne(db, sql: "SELECT count(*) FROM event WHERE state = 0") ?? 0,
                regions: try Int.fetchOne(db, sql: "SELECT count(*) FROM region") ?? 0,
                commands: try Int.fetchOne(db, sql: "SELECT count(*) FROM command") ?? 0,
                rejected: rejected, drops: drops, bytes: (pages - freePages) * pageSize)
        }
    }
}
