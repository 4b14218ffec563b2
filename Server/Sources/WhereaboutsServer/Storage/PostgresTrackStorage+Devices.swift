import Foundation
import PostgresNIO
import WhereaboutsCore

/// Token rotation, removal, erasure, retention and logins on PostgreSQL.
extension PostgresTrackStorage {
    public func rotateToken(device: String, tokenHash: Data) async throws -> Bool {
        try await transaction { connection in
            let updated = try await Self.count(
                connection.query(
                    "UPDATE device SET token_hash = \(ByteBuffer(bytes: tokenHash)) WHERE id = \(device) RETURNING id", logger: logger))
            guard updated == 1 else { return false }
            try await connection.query("DELETE FROM session WHERE device_id = \(device)", logger: logger)
            return true
        }
    }

    public func removeDevice(_ id: String) async throws -> DeletedRows? {
        try await transaction { connection in
            guard try await Self.count(connection.query("DELETE FROM device WHERE id = \(id) RETURNING id", logger: logger)) == 1 else {
                return nil
            }
            var deleted = DeletedRows()
            deleted.logins = try await Self.count(
                connection.query("DELETE FROM session WHERE device_id = \(id) RETURNING 1", logger: logger))
            deleted.commands = try await Self.count(
                connection.query("DELETE FROM command WHERE device_id = \(id) RETURNING 1", logger: logger))
            try await connection.query("DELETE FROM owntracks_device WHERE device_id = \(id)", logger: logger)
            return deleted
        }
    }

    public func deleteDevice(_ id: String) async throws -> DeletedRows {
        try await transaction { connection in
            var deleted = DeletedRows()
            try await connection.query("DELETE FROM device WHERE id = \(id)", logger: logger)
            deleted.locations = try await Self.count(
                connection.query("DELETE FROM location WHERE device_id = \(id) RETURNING 1", logger: logger))
            try await connection.query("DELETE FROM location_identity WHERE device_id = \(id)", logger: logger)
            deleted.events = try await Self.count(connection.query("DELETE FROM event WHERE device_id = \(id) RETURNING 1", logger: logger))
            deleted.messages = try await Self.count(
                connection.query("DELETE FROM message WHERE device_id = \(id) RETURNING 1", logger: logger))
            deleted.regions = try await Self.count(
                connection.query("DELETE FROM region WHERE device_id = \(id) RETURNING 1", logger: logger))
            deleted.commands = try await Self.count(
                connection.query("DELETE FROM command WHERE device_id = \(id) RETURNING 1", logger: logger))
            deleted.logins = try await Self.count(
                connection.query("DELETE FROM session WHERE device_id = \(id) RETURNING 1", logger: logger))
            try await connection.query("DELETE FROM owntracks_location WHERE device_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM owntracks_device WHERE device_id = \(id)", logger: logger)
            return deleted
        }
    }

    /// Drops every monthly partition that ends by `date` whole, deletes the rows before `date` in the
    /// month it falls in, and forgets their identities, so a resend of a pruned location is stored
    /// again. Runs under the partition lock, so no instance creates a partition meanwhile.
    public func prune(before date: Date) async throws -> DeletedRows {
        let cutoff = date.timeIntervalSince1970
        let deleted = try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.partitionLock))", logger: logger)
            var deleted = DeletedRows()
            let names = try await connection.query(
                """
                SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'location'::regclass ORDER BY c.relname
                """, logger: logger
            ).decode(String.self)
            var whole: [String] = []
            for try await name in names {
                guard name.hasPrefix("location_p"), let month = Int(name.dropFirst("location_p".count)) else { continue }
                if LocationPartitions.end(ofMonth: month) <= cutoff { whole.append(name) }
            }
            for name in whole {
                for try await rows in try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(name)"), logger: logger)
                    .decode(Int64.self)
                {
                    deleted.locations += Int(rows)
                }
                try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE \(name)"), logger: logger)
            }
            deleted.partitionsDropped = whole.count
            deleted.locations += try await Self.count(
                connection.query("DELETE FROM location WHERE t < \(cutoff) RETURNING 1", logger: logger))
            try await connection.query("DELETE FROM location_identity WHERE t < \(cutoff)", logger: logger)
            try await connection.query("DELETE FROM owntracks_location WHERE t < \(cutoff)", logger: logger)
            deleted.events = try await Self.count(connection.query("DELETE FROM event WHERE t < \(cutoff) RETURNING 1", logger: logger))
            deleted.messages = try await Self.count(
                connection.query("DELETE FROM message WHERE received_at < \(cutoff) RETURNING 1", logger: logger))
            return deleted
        }
        partitions.forget()
        return deleted
    }

    public func saveLogin(_ login: BrowserLogin) async throws {
        try await client.query(
            """
            INSERT INTO session (id_hash, device_id, token_hash, created_at, expires_at)
            VALUES (\(ByteBuffer(bytes: login.idHash)), \(login.device), \(ByteBuffer(bytes: login.tokenHash)), \(login.createdAt.timeIntervalSince1970),
                \(login.expiresAt.timeIntervalSince1970))
            """, logger: logger)
    }

    public func login(idHash: Data, at date: Date) async throws -> BrowserLogin? {
        let rows = try await client.query(
            """
            SELECT device_id, token_hash, created_at, expires_at FROM session
            WHERE id_hash = \(ByteBuffer(bytes: idHash)) AND expires_at > \(date.timeIntervalSince1970)
            """, logger: logger)
        for try await (device, token, created, expires) in rows.decode((String?, ByteBuffer, Double, Double).self) {
            return BrowserLogin(
                idHash: idHash, device: device, tokenHash: Data(token.readableBytesView), createdAt: Date(timeIntervalSince1970: created),
                expiresAt: Date(timeIntervalSince1970: expires))
        }
        return nil
    }

    public func endLogin(idHash: Data, at date: Date) async throws {
        try await client.query(
            "DELETE FROM session WHERE id_hash = \(ByteBuffer(bytes: idHash)) OR expires_at <= \(date.timeIntervalSince1970)",
            logger: logger)
    }

    /// The number of rows a statement returned.
    private static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }
}
