import Foundation
import GRDB
import WhereaboutsCore

extension SQLiteLocationStore {
    public func append(_ event: RegionEvent) throws {
        let fix = try event.fix.map { try JSONEncoder().encode($0) }
        try write { db in
            try db.execute(
                sql: "INSERT INTO event (uuid, region_id, kind, t, initial, fix) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [UUID(), event.regionID, event.kind.rawValue, event.timestamp.timeIntervalSince1970, event.initial, fix])
        }
    }

    /// Every stored region event, oldest first, with its delivery state.
    public func allEvents() throws -> [(record: EventRecord, state: DeliveryState)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM event ORDER BY seq").map { (Self.eventRecord($0), DeliveryState(rawValue: $0["state"]) ?? .pending) }
        }
    }

    static func eventRecord(_ row: Row) -> EventRecord {
        let fix = (row["fix"] as Data?).flatMap { try? JSONDecoder().decode(Fix.self, from: $0) }
        let event = RegionEvent(
            regionID: row["region_id"], kind: RegionEventKind(rawValue: row["kind"]) ?? .enter,
            timestamp: Date(timeIntervalSince1970: row["t"]), initial: row["initial"], fix: fix)
        return EventRecord(id: row["uuid"], event: event)
    }

    public func save(_ regions: [Region]) throws {
        let encoder = JSONEncoder()
        let rows = try regions.map { ($0.id, try encoder.encode($0)) }
        try write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO region (id, definition) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET definition = excluded.definition, inside = NULL, state_at = NULL, dwelt = 0")
            for (id, definition) in rows { try statement.execute(arguments: [id, definition]) }
        }
    }

    public func removeRegions(_ ids: [String]) throws {
        try write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM region WHERE id = ?")
            for id in ids { try statement.execute(arguments: [id]) }
        }
    }

    public func regions() throws -> [Region] {
        let decoder = JSONDecoder()
        let definitions = try read { db in try Data.fetchAll(db, sql: "SELECT definition FROM region ORDER BY id") }
        return try definitions.map { try decoder.decode(Region.self, from: $0) }
    }

    public func setRegionState(_ id: String, inside: Bool?, at date: Date) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE region SET inside = ?, state_at = ?, dwelt = 0 WHERE id = ?", arguments: [inside, date.timeIntervalSince1970, id])
        }
    }

    /// Remembers that the dwell event of the current stay in region `id` was reported, so a relaunch
    /// does not report it again.
    public func setRegionDwelt(_ id: String) throws {
        try write { db in try db.execute(sql: "UPDATE region SET dwelt = 1 WHERE id = ?", arguments: [id]) }
    }

    public func setting<Value: Codable>(_ key: SettingKey<Value>) throws -> Value? {
        let data = try read { db in try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key.name]) }
        return try data.map { try JSONDecoder().decode(Value.self, from: $0) }
    }

    public func set<Value: Codable>(_ key: SettingKey<Value>, _ value: Value?) throws {
        let data = try value.map { try JSONEncoder().encode($0) }
        try write { db in
            if let data {
                try db.execute(
                    sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    arguments: [key.name, data])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key.name])
            }
        }
    }
}
