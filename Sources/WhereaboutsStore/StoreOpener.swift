import Foundation
import GRDB

/// Opens the file at a store's path as far as its ``StoreOpenMode`` allows: refuses what is not a
/// store (naming it and leaving it as it was), creates a missing store, upgrades an older one and
/// salvages a damaged one.
struct StoreOpener {
    let path: String
    let options: StoreOptions
    let now: Date

    /// The opened database and what opening it did.
    func open() throws -> (any DatabaseWriter, StoreOpenReport) {
        switch options.mode {
        case .readOnly: try openReadOnly(path)
        case .snapshot where !StoreFileProbe.isAtRest(path): try openSnapshot()
        case .snapshot: try openReadOnly(path)
        case .readWrite, .existing, .dedicated: try openForWriting()
        }
    }

    /// Opens a private copy of the store; its files are removed once the connection holds them open.
    private func openSnapshot() throws -> (any DatabaseWriter, StoreOpenReport) {
        guard FileManager.default.fileExists(atPath: path) else { throw refusal(.missing) }
        let snapshot = try StoreSnapshot.take(of: path)
        defer { try? FileManager.default.removeItem(at: snapshot.folder) }
        return try openReadOnly(snapshot.path)
    }

    /// Opens the store at `file` (``path``, or a copy of it) read-only; errors name ``path``.
    private func openReadOnly(_ file: String) throws -> (any DatabaseWriter, StoreOpenReport) {
        let probe = StoreFileProbe.look(at: file)
        guard case .store(let facts) = probe.finding, let connection = probe.connection else {
            try? probe.connection?.close()
            throw refusal(probe.finding)
        }
        do {
            try check(facts.migrations)
        } catch {
            try? connection.close()
            throw error
        }
        return (connection, StoreOpenReport(damage: facts.damage))
    }

    private func openForWriting() throws -> (any DatabaseWriter, StoreOpenReport) {
        let salvager = StoreSalvager(path: path)
        var report = StoreOpenReport(salvage: try salvager.finishInterrupted())
        salvager.removeLeftovers()
        let probe = StoreFileProbe.look(at: path)
        try probe.connection?.close()
        let dedicated = options.mode == .dedicated
        switch probe.finding {
        case .missing where options.mode != .existing:
            try create()
            report.created = true
        case .empty where dedicated:
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try create()
            report.created = true
        case .notDatabase where dedicated:
            report.salvage = try salvager.salvage(problem: "not a SQLite database", migrations: nil, now: now)
        case .unrecognisable(let problem) where dedicated:
            report.salvage = try salvager.salvage(problem: problem, migrations: nil, now: now)
        case .store(let facts):
            try check(facts.migrations)
            if let damage = facts.damage {
                report.salvage = try salvager.salvage(problem: damage, migrations: facts.migrations, now: now)
            }
        default:
            throw refusal(probe.finding)
        }
        let pool = try Self.pool(at: path, maxPageCount: options.maxPageCount)
        try StoreSchema.migrator.migrate(pool)
        return (pool, report)
    }

    /// Creates a store beside the path and moves it there whole, so neither a crash nor a full disk
    /// ever leaves a file at the path that is half a store. It is built with a rollback journal, not
    /// a write-ahead log: once built, everything is in the one file that moves, and a build that
    /// fails leaves nothing behind (its file and journal are removed).
    private func create() throws {
        let building = "\(path).creating-\(UUID().uuidString.prefix(8))"
        defer { for suffix in ["", "-journal", "-wal", "-shm"] { unlink(building + suffix) } }
        do {
            let queue = try DatabaseQueue(path: building)
            try StoreSchema.migrator.migrate(queue)
            try queue.close()
        } catch {
            guard let cause = SQLiteLocationStore.storeError(error, path: building) as? StoreError else { throw error }
            guard cause.kind == .diskFull else {
                throw StoreError(
                    kind: cause.kind, path: path, problem: "could not be created (\(cause.problem)); no file was left there", fix: cause.fix
                )
            }
            throw StoreError(
                kind: .diskFull, path: path,
                problem:
                    "could not be created: \(SpaceShortage.describe(at: building) ?? "the disk or its size cap is full"); no file was left there",
                fix: "free disk space or raise the file-size limit, then run again")
        }
        guard link(building, path) == 0 || rename(building, path) == 0 else {
            throw StoreError(
                kind: .io, path: path, problem: "could not be created (\(String(cString: strerror(errno))))",
                fix: "check the folder is writable and that no other program writes the file")
        }
    }

    /// A connection pool in WAL mode, with the size cap if any.
    static func pool(at path: String, maxPageCount: Int?) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            if let maxPageCount { try db.execute(sql: "PRAGMA max_page_count = \(maxPageCount)") }
        }
        return try DatabasePool(path: path, configuration: configuration)
    }

    /// Refuses a store whose migrations this version does not know (a newer store), and, read-only,
    /// one too old to be read without an upgrade.
    private func check(_ migrations: [String]?) throws {
        guard let migrations else { return }
        let unknown = migrations.filter { !StoreSchema.migrator.migrations.contains($0) }
        guard unknown.isEmpty else {
            throw StoreError(
                kind: .incompatible, path: path,
                problem:
                    "was written by a newer version of Whereabouts (its schema has \(unknown.joined(separator: ", "))); it was left as it was",
                fix: "open it with that version")
        }
        guard options.mode != .readOnly && options.mode != .snapshot || migrations.contains(StoreSchema.readableFrom) else {
            throw StoreError(
                kind: .incompatible, path: path,
                problem: "was written by an older version of Whereabouts (schema \(migrations.last ?? "none")) and cannot be read as it is",
                fix:
                    "upgrade it by opening it once for writing, e.g. `whereabouts store requeue \(path)` (which also puts rejected records back to pending)"
            )
        }
    }

    /// How a refusal points to a store to open instead.
    private static let giveWritten = "give the path of a store written by `whereabouts simulate --store` or `whereabouts track`"

    /// The error for a file this mode does not open. Only a mode that creates a missing store may
    /// point to a free path.
    private func refusal(_ finding: StoreFileProbe.Finding) -> StoreError {
        let give =
            options.mode == .readOnly || options.mode == .snapshot || options.mode == .existing
            ? Self.giveWritten
            : "give the path of a store, or a path where no file is yet to start one"
        let untouched = "not a Whereabouts store; it was left as it was"
        switch finding {
        case .missing where options.mode == .existing:
            return StoreError(
                kind: .io, path: path, problem: "does not exist",
                fix: "this command works on what a store holds and creates none; \(Self.giveWritten)")
        case .missing:
            return StoreError(kind: .io, path: path, problem: "does not exist", fix: give)
        case .folder:
            return StoreError(kind: .notAStore, path: path, problem: "is a folder, not a Whereabouts store", fix: give)
        case .empty(let what):
            return StoreError(
                kind: .notAStore, path: path, problem: "\(what), not a Whereabouts store", fix: "remove it or give another path")
        case .notDatabase:
            return StoreError(kind: .notAStore, path: path, problem: "is not a SQLite database, \(untouched)", fix: give)
        case .foreign(let what):
            return StoreError(kind: .notAStore, path: path, problem: "\(what), \(untouched)", fix: give)
        case .unrecognisable(let problem):
            return StoreError(
                kind: .notAStore, path: path,
                problem: "is a SQLite database too damaged to tell whether it is a Whereabouts store (\(problem)); it was left as it was",
                fix: "give another path, or move the file away to start a new store there")
        case .store:
            return StoreError(kind: .io, path: path, problem: "could not be opened", fix: give)
        }
    }
}
