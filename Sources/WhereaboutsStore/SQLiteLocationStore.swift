import Foundation
import GRDB
import WhereaboutsCore

/// The device's store, the single source of truth, on SQLite through GRDB: WAL mode, versioned
/// migrations, retention limits that never drop an undelivered record silently, salvage of a damaged
/// file, a clear error on a full disk, and a read-only mode that writes nothing.
public final class SQLiteLocationStore: DeliveryQueue, EventQueue, SettingStore, @unchecked Sendable {
    /// The file.
    public let path: String
    /// What happened when the store opened (a store created, damage found, a salvage).
    public let openReport: StoreOpenReport
    /// The retention limits enforced after appends.
    public let retention: RetentionPolicy
    let database: any DatabaseWriter
    private let lock = NSLock()
    private var appendsSinceRetention = 0
    private var retentionFailure: StoreError?

    /// Opens the store at `path` as `options.mode` allows (see ``StoreOpenMode``): by default an
    /// app's own store, created when missing and salvaged when damaged.
    /// - Throws: ``StoreError`` naming the file, the problem and the fix, when the file is not a
    ///   store, is from an incompatible version, or cannot be opened or created at all.
    public init(path: String, options: StoreOptions = StoreOptions(), now: Date = Date()) throws {
        self.path = path
        self.retention = options.retention
        do {
            (database, openReport) = try StoreOpener(path: path, options: options, now: now).open()
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Changes the file's size cap (`nil` lifts it), for instance once disk space returns.
    public func setMaxPageCount(_ pages: Int?) throws {
        try write { db in try db.execute(sql: "PRAGMA max_page_count = \(pages ?? 1_073_741_823)") }
    }

    /// Runs a write transaction, turning SQLite failures into ``StoreError``.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try database.write(body) } catch { throw Self.storeError(error, path: path) }
    }

    /// Runs a read, turning SQLite failures into ``StoreError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try database.read(body) } catch { throw Self.storeError(error, path: path) }
    }

    static func storeError(_ error: any Error, path: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        // A full disk is SQLITE_FULL; a file-size limit reached is a plain I/O error.
        let shortage = [.SQLITE_FULL, .SQLITE_IOERR].contains(error.resultCode) ? SpaceShortage.describe(at: path) : nil
        switch error.resultCode {
        case _ where error.resultCode == .SQLITE_FULL || shortage != nil:
            return StoreError(
                kind: .diskFull, path: path,
                problem: "cannot grow (\(shortage ?? "the disk or its size cap is full")); the write was not made",
                fix: "free disk space or raise the cap or file-size limit; every record written before is intact and recording resumes")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return StoreError(
                kind: .corrupt, path: path, problem: "is damaged (\(error.message ?? "corrupt"))",
                fix: "open it for writing again: what can be read is salvaged into a new store and the damaged file kept beside it")
        case .SQLITE_READONLY:
            return StoreError(
                kind: .readOnly, path: path, problem: "is open read-only (or the file is write-protected); the change was not made",
                fix: "open it for writing, with permission to write the file and its folder")
        default:
            return StoreError(
                kind: .io, path: path, problem: "could not be used (\(error.message ?? "\(error.resultCode)"))",
                fix: "check the folder exists and is writable")
        }
    }

    // MARK: Records

    /// Appends records in one transaction (an import, a benchmark; the engine writes through
    /// ``apply(_:at:)``); retention, when due, counts ages from `now`.
    public func append(_ records: [LocationRecord], at now: Date) throws {
        guard !records.isEmpty else { return }
        try write { db in try Self.insert(records, db) }
        retainAfterWrite(records: records.count, now: now)
    }

    /// Applies retention when `records` more make it due. The records are already committed, so a
    /// retention that fails (a disk too full for its deletions) does not make the write fail: it is
    /// kept in ``lastRetentionFailure`` and tried again at the next record.
    func retainAfterWrite(records count: Int, now: Date) {
        guard count > 0, retention.isLimited else { return }
        let due = lock.withLock {
            appendsSinceRetention += count
            guard appendsSinceRetention >= retention.checkEvery else { return false }
            appendsSinceRetention = 0
            return true
        }
        guard due else { return }
        do {
            _ = try enforceRetention(now: now)
            lock.withLock { retentionFailure = nil }
        } catch {
            lock.withLock {
                retentionFailure =
                    error as? StoreError
                    ?? StoreError(kind: .io, path: path, problem: "could not apply retention (\(error))", fix: "check the store file")
                appendsSinceRetention = retention.checkEvery
            }
        }
    }

    /// Why the last retention run after a write failed, until one succeeds; the write itself was stored.
    public var lastRetentionFailure: StoreError? { lock.withLock { retentionFailure } }

    /// Every record in append order, with its state (for inspection and tests).
    public func allRecords() throws -> [(record: LocationRecord, state: DeliveryState)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM location ORDER BY seq").map(RecordCodes.recordState)
        }
    }

    /// Closes the file after checkpointing the write-ahead log, for a process about to exit. The
    /// store cannot be used afterwards.
    public func close() throws {
        do { try database.close() } catch { throw Self.storeError(error, path: path) }
    }

    /// Runs `PRAGMA integrity_check` and returns its first line (`ok` for a sound file).
    public func integrityCheck() throws -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check(1)") ?? "no answer" }
    }
}
