import Foundation
import GRDB
import WhereaboutsCore

extension SQLiteLocationStore {
    /// Up to `limit` records not yet acknowledged by a server, in the order they would be uploaded.
    public func pendingRecords(order: DeliveryOrder = .oldestFirst, limit: Int = .max) throws -> [LocationRecord] {
        let direction = order == .oldestFirst ? "ASC" : "DESC"
        return try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM location INDEXED BY location_pending WHERE state = 0 ORDER BY t \(direction), seq \(direction) LIMIT ?",
                arguments: [limit]
            ).map(RecordCodes.record)
        }
    }

    /// The newest `limit` records whatever their delivery state, oldest first.
    public func recentRecords(limit: Int) throws -> [LocationRecord] {
        try recentRecordStates(limit: limit).map(\.record)
    }

    /// The newest `limit` records with their delivery state, oldest first.
    public func recentRecordStates(limit: Int) throws -> [(record: LocationRecord, state: DeliveryState)] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM (SELECT * FROM location ORDER BY seq DESC LIMIT ?) ORDER BY seq", arguments: [limit]
            ).map(RecordCodes.recordState)
        }
    }

    /// The record with `id`, whatever its delivery state, or `nil` when none is stored.
    public func record(id: UUID) throws -> LocationRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM location WHERE uuid = ?", arguments: [id]).map(RecordCodes.record)
        }
    }

    /// Deletes every record, whatever its delivery state (the user cleared the app's history), and
    /// returns how many there were. Region events and settings stay.
    @discardableResult
    public func deleteAllRecords() throws -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM location")
            return db.changesCount
        }
    }

    /// The newest `limit` region events, oldest first.
    public func recentEvents(limit: Int) throws -> [RegionEvent] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM (SELECT * FROM event ORDER BY seq DESC LIMIT ?) ORDER BY seq", arguments: [limit])
                .map { Self.eventRecord($0).event }
        }
    }

    /// The last known state of each region judged since tracking last started, sorted by id.
    public func regionStates() throws -> [RegionStateRecord] {
        try read { db in try Self.regionStates(db) }
    }

    static func regionStates(_ db: Database) throws -> [RegionStateRecord] {
        try Row.fetchAll(
            db, sql: "SELECT id, inside, state_at, dwelt FROM region WHERE inside IS NOT NULL AND state_at IS NOT NULL ORDER BY id"
        ).map {
            RegionStateRecord(
                regionID: $0["id"], inside: $0["inside"], since: Date(timeIntervalSince1970: $0["state_at"]), dwelt: $0["dwelt"])
        }
    }

    /// What a relaunched app restores, read in one transaction: configuration, the tracking flag,
    /// regions with their states, the newest record and the permission records.
    public func savedSession() throws -> SavedSession {
        try read { db in
            SavedSession(
                configuration: try Self.setting(.configuration, db), trackingEnabled: try Self.setting(.trackingEnabled, db) ?? false,
                regions: try Self.regions(db), regionStates: try Self.regionStates(db),
                lastRecord: try Row.fetchOne(db, sql: "SELECT * FROM location ORDER BY seq DESC LIMIT 1").map(RecordCodes.record),
                permissions: try Self.setting(.permissions, db),
                uploads: UploadAccount(settings: try Self.setting(.uploadSettings, db), tokens: try Self.setting(.authTokens, db)),
                unacknowledgedCommands: try Self.commandAcknowledgements(db), activeTrackingEnd: try Self.setting(.activeTrackingEnd, db),
                stayEnded: try Self.setting(.stayEnded, db))
        }
    }
}
