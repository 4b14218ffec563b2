import Foundation
import GRDB
import WhereaboutsCore

/// The device's store, the single source of truth, on SQLite through GRDB: WAL mode, versioned migrations, retention limits
/// that never drop an undelivered record silently, recovery from a corrupt file and a clear error on
/// a full disk.
public final class SQLiteLocationStore: DeliveryQueue, EventQueue, SettingStore, @unchecked Sendable {
    /// The file.
    public let path: String
    /// What happened when the store opened (a corrupt file moved aside, for instance).
    public let openReport: StoreOpenReport
    /// The retention limits enforced after appends.
    public let retention: RetentionPolicy
    let pool: DatabasePool
    private let lock = NSLock()
    private var appendsSinceRetention = 0

    /// Opens (or creates) the store at `path`. A file that is not a database, or is damaged, is moved
    /// aside to `path.corrupt-<time>` and a new store starts; ``openReport`` says so.
    /// - Parameter maxPageCount: SQLite's `max_page_count`, to cap the file's size.
    /// - Throws: ``StoreError`` when the file cannot be opened or created at all.
    public init(path: String, retention: RetentionPolicy = .init(), maxPageCount: Int? = nil, now: Date = Date()) throws {
        self.path = path
        self.retention = retention
        do {
            pool = try Self.open(path: path, maxPageCount: maxPageCount)
            openReport = StoreOpenReport(movedAside: nil)
        } catch let error as DatabaseError where Self.isCorruption(error) {
            let aside = try Self.moveAside(path, now: now)
            pool = try Self.open(path: path, maxPageCount: maxPageCount)
            openReport = StoreOpenReport(movedAside: aside)
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    private static func open(path: String, maxPageCount: Int?) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            if let maxPageCount { try db.execute(sql: "PRAGMA max_page_count = \(maxPageCount)") }
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check(1)")
            guard check == "ok" else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check) }
        }
        try StoreSchema.migrator.migrate(pool)
        return pool
    }

    static func isCorruption(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    private static func moveAside(_ path: String, now: Date) throws -> String {
        let stamp = Timestamp.format(now).replacingOccurrences(of: ":", with: "")
        let aside = "\(path).corrupt-\(stamp)"
        let files = FileManager.default
        do {
            try files.moveItem(atPath: path, toPath: aside)
            for suffix in ["-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
                try files.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
        } catch {
            throw StoreError(
                kind: .corrupt, path: path, problem: "is not a readable database and could not be moved aside (\(error))",
                fix: "move or delete the file by hand, then start again")
        }
        return aside
    }

    /// Changes the file's size cap (`nil` lifts it), for instance once disk space returns.
    public func setMaxPageCount(_ pages: Int?) throws {
        try write { db in try db.execute(sql: "PRAGMA max_page_count = \(pages ?? 1_073_741_823)") }
    }

    /// Runs a write transaction, turning SQLite failures into ``StoreError``.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.write(body) } catch { throw Self.storeError(error, path: path) }
    }

    /// Runs a read, turning SQLite failures into ``StoreError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.read(body) } catch { throw Self.storeError(error, path: path) }
    }

    static func storeError(_ error: any Error, path: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_FULL:
            return StoreError(
                kind: .diskFull, path: path, problem: "is full (the disk or its size cap); the write was not made",
                fix: "free disk space or raise the cap; every record written before is intact and recording resumes")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return StoreError(
                kind: .corrupt, path: path, problem: "is damaged (\(error.message ?? "corrupt"))",
                fix: "reopen the store: a damaged file is moved aside and a new one started")
        default:
            return StoreError(
                kind: .io, path: path, problem: "could not be used (\(error.message ?? "\(error.resultCode)"))",
                fix: "check the folder exists and is writable")
        }
    }

    // MARK: Records

    /// Appends records in one transaction (an import, a benchmark; the engine writes through ``apply(_:)``).
    public func append(_ records: [LocationRecord]) throws {
        guard !records.isEmpty else { return }
        try write { db in try Self.insert(records, db) }
        if retentionDue(after: records.count) { _ = try enforceRetention(now: Date()) }
    }

    func retentionDue(after count: Int) -> Bool {
        guard retention.isLimited else { return false }
        lock.lock()
        defer { lock.unlock() }
        appendsSinceRetention += count
        guard appendsSinceRetention >= retention.checkEvery else { return false }
        appendsSinceRetention = 0
        return true
    }

    /// Every record in append order, with its state (for inspection and tests).
    public func allRecords() throws -> [(record: LocationRecord, state: DeliveryState)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM location ORDER BY seq").map(RecordCodes.recordState)
        }
    }

    /// Closes the file after checkpointing the write-ahead log, for a process about to exit. The
    /// store cannot be used afterwards.
    public func close() throws {
        do { try pool.close() } catch { throw Self.storeError(error, path: path) }
    }

    /// Runs `PRAGMA integrity_check` and returns its first line (`ok` for a sound file).
    public func integrityCheck() throws -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check(1)") ?? "no answer" }
    }
}

/// What happened when a store opened.
public struct StoreOpenReport: Sendable, Equatable {
    /// Where a damaged file was moved, if it was.
    public let movedAside: String?
}
