import Foundation
import GRDB
import WhereaboutsCore

extension SQLiteLocationStore {
    /// Writes `writes` in order in one transaction, at `now` (the time commands are marked carried out
    /// and retention counts from): all of them or, when the store refuses (a full disk), none.
    /// Retention, when due, runs after the writes are committed (``retainAfterWrite(records:now:)``).
    /// - Throws: ``StoreError``; nothing of `writes` is then stored.
    public func apply(_ writes: [StoreWrite], at now: Date) throws {
        guard !writes.isEmpty else { return }
        try write { db in
            for change in writes { try Self.apply(change, db, now: now) }
        }
        retainAfterWrite(records: writes.reduce(0) { count, change in if case .record = change { count + 1 } else { count } }, now: now)
    }

    private static func apply(_ change: StoreWrite, _ db: Database, now: Date) throws {
        switch change {
        case .record(let record): try insert([record], db)
        case .dwell(let dwell, let id): try update(id, "dwell = ?", [dwell], db)
        case .place(let fix, let id): try place(id, at: fix, db)
        case .event(let record): try insert(record, db)
        case .regionStates(let states):
            let statement = try db.cachedStatement(sql: "UPDATE region SET inside = ?, state_at = ?, dwelt = ? WHERE id = ?")
            for state in states {
                try statement.execute(arguments: [state.inside, state.since.timeIntervalSince1970, state.dwelt, state.regionID])
            }
        case .forgetRegionStates:
            try db.execute(sql: "UPDATE region SET inside = NULL, state_at = NULL, dwelt = 0 WHERE inside IS NOT NULL OR dwelt != 0")
        case .session(let value): try apply(value, db, now: now)
        }
    }

    private static func apply(_ value: SessionWrite, _ db: Database, now: Date) throws {
        switch value {
        case .configuration(let configuration): try setSetting(.configuration, configuration, db)
        case .trackingEnabled(let enabled): try setSetting(.trackingEnabled, enabled, db)
        case .activeTrackingEnd(let end): try setSetting(.activeTrackingEnd, end, db)
        case .stayEnded(let record): try setSetting(.stayEnded, record, db)
        case .permissions(let permissions): try setSetting(.permissions, permissions, db)
        case .saveRegions(let regions): try save(regions, db)
        case .removeRegions(let ids):
            let statement = try db.cachedStatement(sql: "DELETE FROM region WHERE id = ?")
            for id in ids { try statement.execute(arguments: [id]) }
        case .commandsApplied(let ids):
            let statement = try db.cachedStatement(sql: "UPDATE command SET applied_at = ? WHERE id = ? AND applied_at IS NULL")
            for id in ids { try statement.execute(arguments: [now.timeIntervalSince1970, id]) }
        case .uploadSettings(let settings): try setSetting(.uploadSettings, settings, db)
        case .authTokens(let tokens): try setSetting(.authTokens, tokens, db)
        }
    }

    /// Inserts records in the order given.
    static func insert(_ records: [LocationRecord], _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO location (uuid, t, lat, lon, acc, alt, speed, course, source, trigger, dwell)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for record in records {
            let fix = record.fix
            try statement.execute(arguments: [
                record.id, fix.timestamp.timeIntervalSince1970, fix.coordinate.latitude, fix.coordinate.longitude,
                fix.horizontalAccuracy, fix.altitude, fix.speed, fix.course, RecordCodes.code(fix.source),
                RecordCodes.code(record.trigger), record.dwell,
            ])
        }
    }

    /// Places record `id` at `fix`, which carries its timestamp (``update(_:_:_:_:)``).
    private static func place(_ id: UUID, at fix: Fix, _ db: Database) throws {
        try update(
            id, "lat = ?, lon = ?, acc = ?, alt = ?, speed = ?, course = ?, source = ?",
            [
                fix.coordinate.latitude, fix.coordinate.longitude, fix.horizontalAccuracy, fix.altitude, fix.speed, fix.course,
                RecordCodes.code(fix.source),
            ], db)
    }

    /// Sets `assignments` on record `id`; a delivered record becomes pending again, one in flight is
    /// marked to be sent again once its upload settles, so the server learns the change.
    private static func update(_ id: UUID, _ assignments: String, _ arguments: StatementArguments, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE location SET \(assignments),
                    redo = CASE WHEN state = 0 AND lease IS NOT NULL THEN 1 ELSE redo END,
                    state = CASE WHEN state = 1 THEN 0 ELSE state END
                WHERE uuid = ?
                """, arguments: arguments + [id])
    }

    /// Inserts a region event, pending upload.
    static func insert(_ record: EventRecord, _ db: Database) throws {
        let event = record.event
        let fix = try event.fix.map { try JSONEncoder().encode($0) }
        try db.execute(
            sql: "INSERT INTO event (uuid, region_id, kind, t, initial, fix) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [record.id, event.regionID, RecordCodes.code(event.kind), event.timestamp.timeIntervalSince1970, event.initial, fix])
    }

    /// Stores regions, replacing those with the same id and forgetting their state.
    static func save(_ regions: [Region], _ db: Database) throws {
        let encoder = JSONEncoder()
        let statement = try db.cachedStatement(
            sql:
                "INSERT INTO region (id, definition) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET definition = excluded.definition, inside = NULL, state_at = NULL, dwelt = 0"
        )
        for region in regions { try statement.execute(arguments: [region.id, try encoder.encode(region)]) }
    }

    /// Stores a setting (or removes it, for `nil`).
    static func setSetting<Value: Codable>(_ key: SettingKey<Value>, _ value: Value?, _ db: Database) throws {
        if let value {
            try db.execute(
                sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key.name, try JSONEncoder().encode(value)])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key.name])
        }
    }
}
