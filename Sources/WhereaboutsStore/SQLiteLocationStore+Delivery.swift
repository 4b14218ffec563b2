import Foundation
import GRDB
import WhereaboutsCore

extension SQLiteLocationStore {
    public func claim(limit: Int, order: DeliveryOrder, now: Date, lease: TimeInterval) throws -> [LocationRecord] {
        let direction = order == .oldestFirst ? "ASC" : "DESC"
        let t = now.timeIntervalSince1970
        return try write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM location INDEXED BY location_pending
                    WHERE state = 0 AND (lease IS NULL OR lease <= ?)
                    ORDER BY t \(direction), seq \(direction) LIMIT ?
                    """, arguments: [t, limit])
            let update = try db.cachedStatement(sql: "UPDATE location SET lease = ? WHERE seq = ?")
            for row in rows { try update.execute(arguments: [t + lease, row["seq"] as Int64]) }
            return rows.map(RecordCodes.record)
        }
    }

    public func markDelivered(_ ids: [UUID]) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(
                sql: "UPDATE location SET state = CASE WHEN redo = 1 THEN 0 ELSE 1 END, redo = 0, lease = NULL WHERE uuid = ? AND state = 0"
            )
            for id in ids { try statement.execute(arguments: [id]) }
        }
    }

    public func markRejected(_ rejections: [UUID: Rejection], at date: Date) throws {
        guard !rejections.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(
                sql: """
                    UPDATE location SET state = 2, lease = NULL, redo = 0, reject_status = ?, reject_reason = ?, rejected_at = ?
                    WHERE uuid = ? AND state = 0
                    """)
            for (id, rejection) in rejections {
                try statement.execute(arguments: [rejection.status, rejection.reason, date.timeIntervalSince1970, id])
            }
        }
    }

    public func release(_ ids: [UUID]) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(sql: "UPDATE location SET lease = NULL, redo = 0 WHERE uuid = ? AND state = 0")
            for id in ids { try statement.execute(arguments: [id]) }
        }
    }

    public func pendingCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM location INDEXED BY location_pending WHERE state = 0") ?? 0 }
    }

    /// Moves rejected records back to pending so the next flush sends them again: for when the cause
    /// (a server bug, a wrong URL) has been fixed. Rejected records are never resent otherwise.
    /// - Returns: How many records were requeued.
    @discardableResult
    public func requeueRejected() throws -> Int {
        try write { db in
            try db.execute(
                sql: "UPDATE location SET state = 0, reject_status = NULL, reject_reason = NULL, rejected_at = NULL WHERE state = 2")
            return db.changesCount
        }
    }

    /// Moves rejected region events back to pending, as ``requeueRejected()`` does for records.
    /// - Returns: How many events were requeued.
    @discardableResult
    public func requeueRejectedEvents() throws -> Int {
        try write { db in
            try db.execute(sql: "UPDATE event SET state = 0, reject_status = NULL, reject_reason = NULL WHERE state = 2")
            return db.changesCount
        }
    }

    public func enqueueCommands(_ commands: [DeviceCommand], at date: Date) throws {
        guard !commands.isEmpty else { return }
        let encoder = JSONEncoder()
        let rows = try commands.map { ($0.id, try encoder.encode($0.command)) }
        try write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO command (id, received_at, body) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING")
            for (id, body) in rows { try statement.execute(arguments: [id, date.timeIntervalSince1970, body]) }
        }
    }

    /// The commands not yet carried out, oldest first. A body this version cannot read (from a newer
    /// server) is left out.
    public func unappliedCommands() throws -> [DeviceCommand] {
        let rows = try read { db in try Row.fetchAll(db, sql: "SELECT id, body FROM command WHERE applied_at IS NULL ORDER BY seq") }
        let decoder = JSONDecoder()
        return rows.compactMap { row in
            (try? decoder.decode(ServerCommand.self, from: row["body"] as Data)).map { DeviceCommand(id: row["id"], command: $0) }
        }
    }

    public func commandAcknowledgements() throws -> [String] {
        try read { db in try Self.commandAcknowledgements(db) }
    }

    static func commandAcknowledgements(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT id FROM command WHERE applied_at IS NOT NULL ORDER BY seq")
    }

    public func confirmAcknowledged(_ ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM command WHERE id = ? AND applied_at IS NOT NULL")
            for id in ids { try statement.execute(arguments: [id]) }
        }
    }
}

extension SQLiteLocationStore {
    /// Hands back every lease at once. Only for a process that knows it is the store's sole uploader
    /// and starts after another was killed; otherwise leases expire on their own.
    public func releaseAllLeases() throws {
        try write { db in
            try db.execute(sql: "UPDATE location SET lease = NULL, redo = 0 WHERE state = 0 AND lease IS NOT NULL")
            try db.execute(sql: "UPDATE event SET lease = NULL WHERE state = 0 AND lease IS NOT NULL")
        }
    }
}

extension SQLiteLocationStore {
    public func claimEvents(limit: Int, now: Date, lease: TimeInterval) throws -> [EventRecord] {
        let t = now.timeIntervalSince1970
        return try write { db in
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT * FROM event INDEXED BY event_pending WHERE state = 0 AND (lease IS NULL OR lease <= ?) ORDER BY seq LIMIT ?",
                arguments: [t, limit])
            let update = try db.cachedStatement(sql: "UPDATE event SET lease = ? WHERE seq = ?")
            for row in rows { try update.execute(arguments: [t + lease, row["seq"] as Int64]) }
            return rows.map(Self.eventRecord)
        }
    }

    public func markEventsDelivered(_ ids: [UUID]) throws {
        try updateEvents(ids, sql: "UPDATE event SET state = 1, lease = NULL WHERE uuid = ? AND state = 0")
    }

    public func releaseEvents(_ ids: [UUID]) throws {
        try updateEvents(ids, sql: "UPDATE event SET lease = NULL WHERE uuid = ? AND state = 0")
    }

    public func markEventsRejected(_ rejections: [UUID: Rejection], at date: Date) throws {
        guard !rejections.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(
                sql: "UPDATE event SET state = 2, lease = NULL, reject_status = ?, reject_reason = ? WHERE uuid = ? AND state = 0")
            for (id, rejection) in rejections { try statement.execute(arguments: [rejection.status, rejection.reason, id]) }
        }
    }

    private func updateEvents(_ ids: [UUID], sql: String) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(sql: sql)
            for id in ids { try statement.execute(arguments: [id]) }
        }
    }
}
