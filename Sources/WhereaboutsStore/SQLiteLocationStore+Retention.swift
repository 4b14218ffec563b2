import Foundation
import GRDB
import WhereaboutsCore

extension SQLiteLocationStore {
    /// Applies the retention limits now: by age, then by count; delivered records first, then rejected,
    /// then pending. A record's age counts from the end of its stay (its time plus its dwell), and the
    /// newest record, the one a stay goes on changing, is never dropped. Every drop is written to the
    /// drop log.
    @discardableResult
    public func enforceRetention(now: Date) throws -> RetentionReport {
        try write { db in
            var report = RetentionReport()
            let at = now.timeIntervalSince1970
            if let maxAge = retention.maxAge {
                for state in Self.dropOrder {
                    try db.execute(
                        sql: "DELETE FROM location WHERE state = ? AND t + dwell < ? AND seq < (SELECT max(seq) FROM location)",
                        arguments: [RecordCodes.code(state), at - maxAge])
                    try log(db, dropped: db.changesCount, state: state, reason: "older than \(Int(maxAge)) s", at: at, into: &report)
                }
            }
            if let maxRecords = retention.maxRecords {
                for state in Self.dropOrder {
                    let excess = (try Int.fetchOne(db, sql: "SELECT count(*) FROM location") ?? 0) - maxRecords
                    guard excess > 0 else { break }
                    try db.execute(
                        sql: """
                            DELETE FROM location WHERE seq IN (
                                SELECT seq FROM location WHERE state = ? AND seq < (SELECT max(seq) FROM location) ORDER BY seq LIMIT ?)
                            """,
                        arguments: [RecordCodes.code(state), excess])
                    try log(db, dropped: db.changesCount, state: state, reason: "over \(maxRecords) records", at: at, into: &report)
                }
            }
            return report
        }
    }

    private static let dropOrder: [DeliveryState] = [.delivered, .rejected, .pending]

    private func log(_ db: Database, dropped: Int, state: DeliveryState, reason: String, at: Double, into report: inout RetentionReport)
        throws
    {
        guard dropped > 0 else { return }
        if state == .delivered { report.deliveredDropped += dropped } else { report.undeliveredDropped += dropped }
        try db.execute(
            sql: "INSERT INTO drop_log (at, reason, state, count) VALUES (?, ?, ?, ?)",
            arguments: [at, reason, RecordCodes.code(state), dropped])
    }
}
