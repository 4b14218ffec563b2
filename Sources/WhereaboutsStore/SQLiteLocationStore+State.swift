import Foundation
import GRDB
import WhereaboutsCore

extension SQLiteLocationStore {
    /// Every stored region event, oldest first, with its delivery state.
    public func allEvents() throws -> [(record: EventRecord, state: DeliveryState)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM event ORDER BY seq").map {
                (Self.eventRecord($0), RecordCodes.deliveryState(code: $0["state"]))
            }
        }
    }

    static func eventRecord(_ row: Row) -> EventRecord {
        let fix = (row["fix"] as Data?).flatMap { try? JSONDecoder().decode(Fix.self, from: $0) }
        let event = RegionEvent(
            regionID: row["region_id"], kind: RecordCodes.kind(code: row["kind"]),
            timestamp: Date(timeIntervalSince1970: row["t"]), initial: row["initial"], fix: fix)
        return EventRecord(id: row["uuid"], event: event)
    }

    /// Every stored region, sorted by id.
    public func regions() throws -> [Region] {
        try read { db in try Self.regions(db) }
    }

    static func regions(_ db: Database) throws -> [Region] {
        let decoder = JSONDecoder()
        return try Data.fetchAll(db, sql: "SELECT definition FROM region ORDER BY id").map { try decoder.decode(Region.self, from: $0) }
    }

    /// A stored setting, or `nil`.
    public func setting<Value: Codable>(_ key: SettingKey<Value>) throws -> Value? {
        try read { db in try Self.setting(key, db) }
    }

    static func setting<Value: Codable>(_ key: SettingKey<Value>, _ db: Database) throws -> Value? {
        try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key.name]).map {
            try JSONDecoder().decode(Value.self, from: $0)
        }
    }

    /// Stores or (with `nil`) removes a setting.
    public func set<Value: Codable>(_ key: SettingKey<Value>, _ value: Value?) throws {
        try write { db in try Self.setSetting(key, value, db) }
    }
}
