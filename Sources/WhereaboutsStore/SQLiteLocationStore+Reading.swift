import Foundation
import GRDB
import WhereaboutsCore

extension SQLiteLocationStore {
    /// The newest record by append order, or `nil` for an empty store.
    public func latestRecord() throws -> LocationRecord? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM location ORDER BY seq DESC LIMIT 1").map(RecordCodes.record) }
    }

    /// Up to `limit` records not yet acknowledged by a server, in the order they would be uploaded.
    public func pendingRecords(order: DeliveryOrder = .oldestFirst, limit: Int = .max) throws -> [LocationRecord] {
        let direction = order == .oldestFirst ? "ASC" : "DESC"
        return try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM location INDEXED BY location_pending WHERE state = 0 ORDER BY t \(direction), seq \(direction) LIMIT ?",
                arguments: [limit]
            ).map(RecordCodes.record)
        }
    }

    /// The newest `limit` records whatever their delivery state, oldest first.
    public func recentRecords(limit: Int) throws -> [LocationRecord] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM (SELECT * FROM location ORDER BY seq DESC LIMIT ?) ORDER BY seq", arguments: [limit]
            ).map(RecordCodes.record)
        }
    }

    /// The newest `limit` region events, oldest first.
    public func recentEvents(limit: Int) throws -> [RegionEvent] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM (SELECT * FROM event ORDER BY seq DESC LIMIT ?) ORDER BY seq", arguments: [limit])
                .map { Self.eventRecord($0).event }
        }
    }

    /// The last known state of each region and when it was judged; regions never judged are left out.
    public func regionStates() throws -> [String: StoredRegionState] {
        try read { db in
            var states: [String: StoredRegionState] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, inside, state_at, dwelt FROM region WHERE inside IS NOT NULL AND state_at IS NOT NULL") {
                states[row["id"]] = StoredRegionState(
                    inside: row["inside"], since: Date(timeIntervalSince1970: row["state_at"]), dwelt: row["dwelt"])
            }
            return states
        }
    }
}

/// A region's last known state as the store keeps it.
public struct StoredRegionState: Sendable, Equatable {
    /// Whether the device was inside.
    public let inside: Bool
    /// When the device entered (inside) or was last judged outside.
    public let since: Date
    /// Whether the dwell event of this stay was reported.
    public let dwelt: Bool
}
